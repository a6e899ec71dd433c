// File-endpoint links: path-only by default (the spec), absolute with FILES_LINKS_ABSOLUTE (as
// InvenioRDM renders them, for the REST docs' upload.py), in every place they appear; the
// absolute ones lead where the path-only ones do.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BASE_URL, createTestApp, expectStatus, type TestApp } from "../helpers/app";
import { octet } from "../helpers/files";
import { publishableDraft } from "../helpers/records";

let pathOnly: TestApp;
let absolute: TestApp;
beforeAll(async () => {
  pathOnly = await createTestApp();
  absolute = await createTestApp({ FILES_LINKS_ABSOLUTE: true });
});
afterAll(async () => {
  await pathOnly.close();
  await absolute.close();
});

/** Every link of one file entry. */
const entryLinks = (entry: { links: Record<string, unknown> }) => Object.values(entry.links).filter((v): v is string => typeof v === "string");

/** Runs upload.py's sequence by following the links it is given; returns what each step showed. */
async function uploadFollowingLinks(app: TestApp) {
  const draft = await app.call("POST", "/api/records", { as: "alice", body: publishableDraft({ files: { enabled: true } }) });
  expectStatus(draft, 201);
  const started = await app.call("POST", `/api/records/${draft.json.id}/draft/files`, { as: "alice", body: [{ key: "data.csv" }] });
  expectStatus(started, 201);
  const entry = started.json.entries[0];
  // Follow the links as a client does (an absolute one is taken apart to reach the test app).
  const path = (link: string) => (link.startsWith(BASE_URL) ? link.slice(BASE_URL.length) : link);
  expectStatus(await app.call("PUT", path(entry.links.content), { as: "alice", rawBody: "a,b\n1,2\n", headers: octet }), 200);
  const committed = await app.call("POST", path(entry.links.commit), { as: "alice" });
  expectStatus(committed, 200);
  const listing = await app.call("GET", started.json.links.self.startsWith("http") ? path(started.json.links.self) : started.json.links.self, { as: "alice" });
  const published = await app.call("POST", `/api/records/${draft.json.id}/draft/actions/publish`, { as: "alice" });
  expectStatus(published, 202);
  const content = await app.call("GET", path(published.json.files.entries["data.csv"].links.content));
  return { entry, committed: committed.json, listing: listing.json, published: published.json, content: content.text };
}

describe("file links", () => {
  test("path-only by default: every link of the entry, the listing and the record's files", async () => {
    const run = await uploadFollowingLinks(pathOnly);
    const links = [...entryLinks(run.entry), ...entryLinks(run.committed), run.listing.links.self, ...entryLinks(run.published.files.entries["data.csv"])];
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) expect(link).toMatch(/^\/api\/records\/[a-z0-9]{5}-[a-z0-9]{5}\/(draft\/)?files/);
    expect(run.content).toBe("a,b\n1,2\n");
  });

  test("FILES_LINKS_ABSOLUTE: the same links with the base URL, and they lead to the same places", async () => {
    const run = await uploadFollowingLinks(absolute);
    const id = run.published.id;
    expect(run.entry.links).toEqual({
      self: `${BASE_URL}/api/records/${id}/draft/files/data.csv`,
      content: `${BASE_URL}/api/records/${id}/draft/files/data.csv/content`,
      commit: `${BASE_URL}/api/records/${id}/draft/files/data.csv/commit`,
    });
    expect(run.listing.links.self).toBe(`${BASE_URL}/api/records/${id}/draft/files`);
    expect(run.published.files.entries["data.csv"].links).toEqual({
      self: `${BASE_URL}/api/records/${id}/files/data.csv`,
      content: `${BASE_URL}/api/records/${id}/files/data.csv/content`,
    });
    expect(run.content).toBe("a,b\n1,2\n");
    // Multipart part links too.
    const draft = await absolute.call("POST", "/api/records", { as: "alice", body: publishableDraft({ files: { enabled: true } }) });
    const multipart = await absolute.call("POST", `/api/records/${draft.json.id}/draft/files`, {
      as: "alice",
      body: [{ key: "big.bin", size: 12 * 1024 * 1024, transfer: { type: "M", parts: 2, part_size: 6 * 1024 * 1024 } }],
    });
    expectStatus(multipart, 201);
    expect(multipart.json.entries[0].links.parts.map((p: { url: string }) => p.url)).toEqual([
      `${BASE_URL}/api/records/${draft.json.id}/draft/files/big.bin/content/1`,
      `${BASE_URL}/api/records/${draft.json.id}/draft/files/big.bin/content/2`,
    ]);
  });
});
