// The leak matrix: for a restricted record and for a public record with restricted files, every
// path that sends metadata or bytes (record JSON, files.entries, the file list, content, a range,
// the archive, an export, search hits and facet counts, OAI-PMH, statistics) asked by anonymous,
// another user, a grantee of each level, a secret-link holder, an expired link's holder, the owner
// and an administrator; each cell asserted. Grants and links are written through the access store
// (their API has its own tests): this file tests the one permission path that reads them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createAccessDirectory } from "../../src/access/directory";
import * as accessStore from "../../src/access/store";
import { systemActor } from "../../src/core/actor";
import { newUuid } from "../../src/core/ids";
import { createTestApp, expectStatus, type TestApp } from "../helpers/app";
import { publishableDraft, publishRecord } from "../helpers/records";

const CONTENT = "station,temperature\nA,12.5\nB,13.1\n";
const DAY = 86_400_000;

type Caller = "anonymous" | "bob" | "viewer" | "previewer" | "editor" | "manager" | "link" | "expiredLink" | "owner" | "admin";
const CALLERS: Caller[] = ["anonymous", "bob", "viewer", "previewer", "editor", "manager", "link", "expiredLink", "owner", "admin"];
/** Who may read a restricted record's metadata and files: every grant level, a valid link, the owner, administrators. */
const READERS: Caller[] = ["viewer", "previewer", "editor", "manager", "link", "owner", "admin"];
/** Who finds a restricted record in searches: grantees, the owner, administrators — not a link's holder. */
const SEARCHERS: Caller[] = ["viewer", "previewer", "editor", "manager", "owner", "admin"];

let ctx: TestApp;
const tokens: Record<string, string> = {};
const linkTokens = { valid: "", expired: "" };
let restricted: { id: string; parent: { id: string } };
let filesOnly: { id: string; parent: { id: string } };

/** A published record of alice with one file, with this access. */
const publishWithFile = (access: { record: string; files: string }) =>
  publishRecord(ctx, publishableDraft({ access, files: { enabled: true } }), { files: [["data.csv", CONTENT]] });

/** Calls as one of the matrix's callers; links are presented as `?token=` by an anonymous caller. */
function call(who: Caller, method: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}) {
  const withToken = (token: string) => `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`;
  if (who === "link") return ctx.call(method, withToken(linkTokens.valid), options);
  if (who === "expiredLink") return ctx.call(method, withToken(linkTokens.expired), options);
  if (who === "anonymous") return ctx.call(method, path, options);
  if (who === "bob" || who === "admin") return ctx.call(method, path, { ...options, as: who });
  if (who === "owner") return ctx.call(method, path, { ...options, as: "alice" });
  return ctx.call(method, path, { ...options, token: tokens[who] });
}

/** 401 for callers without an account, 403 for signed-in ones. */
const refusal = (who: Caller) => (who === "anonymous" || who === "link" || who === "expiredLink" ? 401 : 403);

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.services.deps.db;
  const userIds: Record<string, number> = {};
  for (const name of ["viewer", "previewer", "editor", "manager"]) {
    const user = await ctx.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, password: `${name}-password` });
    tokens[name] = (await ctx.services.tokens.createToken(systemActor, { userId: user.id, name })).secret;
    userIds[name] = user.id;
  }
  restricted = await publishWithFile({ record: "restricted", files: "restricted" });
  filesOnly = await publishWithFile({ record: "public", files: "restricted" });
  const now = ctx.clock.now();
  const directory = createAccessDirectory(db, ctx.clock);
  for (const record of [restricted, filesOnly]) {
    const parentId = record.parent.id;
    for (const [name, permission] of [
      ["viewer", "view"],
      ["previewer", "preview"],
      ["editor", "edit"],
      ["manager", "manage"],
    ] as const) {
      await accessStore.insertGrant(db, { parentId, subjectType: "user", subjectId: String(userIds[name]), permission, origin: "test", created: now, updated: now });
    }
  }
  // Each record has a valid and an expired view link; the matrix's holders present the record's own.
  for (const record of [restricted, filesOnly]) {
    const valid = await directory.tokens.issue();
    const expired = await directory.tokens.issue();
    await accessStore.insertLink(db, { id: newUuid(), parentId: record.parent.id, permission: "view", tokenHash: valid.hash, expiresAt: now + 10 * DAY, created: now });
    await accessStore.insertLink(db, { id: newUuid(), parentId: record.parent.id, permission: "view", tokenHash: expired.hash, expiresAt: now - 1, created: now - 5 * DAY });
    record === restricted
      ? Object.assign(linkTokens, { valid: valid.token, expired: expired.token })
      : Object.assign(filesOnlyLinks, { valid: valid.token, expired: expired.token });
  }
});
afterAll(() => ctx.close());

const filesOnlyLinks = { valid: "", expired: "" };

/** Runs `body` for the files-only record with that record's links in place of the restricted record's. */
async function withFilesOnlyLinks<T>(body: () => Promise<T>): Promise<T> {
  const saved = { ...linkTokens };
  Object.assign(linkTokens, filesOnlyLinks);
  try {
    return await body();
  } finally {
    Object.assign(linkTokens, saved);
  }
}

describe("a restricted record (metadata and files restricted)", () => {
  for (const who of CALLERS) {
    const reads = READERS.includes(who);
    test(`${who}: record, files, content, range, archive, export and statistics ${reads ? "readable" : "refused"}`, async () => {
      const id = restricted.id;
      const record = await call(who, "GET", `/api/records/${id}`);
      const list = await call(who, "GET", `/api/records/${id}/files`);
      const content = await call(who, "GET", `/api/records/${id}/files/data.csv/content`);
      const range = await call(who, "GET", `/api/records/${id}/files/data.csv/content`, { headers: { range: "bytes=0-6" } });
      const archive = await call(who, "GET", `/api/records/${id}/files-archive`);
      const exported = await call(who, "GET", `/records/${id}/export/json`);
      const citation = await call(who, "GET", `/records/${id}/export/bibtex`);
      const stats = await call(who, "POST", "/api/stats", { body: { v: { stat: "record-view", params: { recid: id } } } });
      if (reads) {
        expectStatus(record, 200);
        expect(record.json.id).toBe(id);
        expect(Object.keys(record.json.files.entries)).toEqual(["data.csv"]);
        expectStatus(list, 200);
        expect(list.json.entries.map((e: { key: string }) => e.key)).toEqual(["data.csv"]);
        expectStatus(content, 200);
        expect(content.text).toBe(CONTENT);
        expect(range.status).toBe(206);
        expect(range.text).toBe(CONTENT.slice(0, 7));
        expectStatus(archive, 200);
        expect(archive.headers.get("content-type")).toContain("zip");
        expectStatus(exported, 200);
        expect(exported.json.id).toBe(id);
        expectStatus(citation, 200);
        expect(citation.text).toContain("@");
        expectStatus(stats, 200);
        expect(stats.json.v).toMatchObject({ views: expect.any(Number) });
      } else {
        for (const res of [record, list, content, range, archive, exported, citation, stats]) expect(res.status).toBe(refusal(who));
        // Nothing of the record in any refusal.
        for (const res of [record, list, content, archive, exported, citation]) expect(res.text).not.toContain("data.csv");
      }
    });
  }

  for (const who of CALLERS) {
    const finds = SEARCHERS.includes(who);
    test(`${who}: search hits and facet counts ${finds ? "include" : "leave out"} the record`, async () => {
      const res = await call(who, "GET", `/api/records?q=id:${restricted.id}`);
      expectStatus(res, 200);
      expect(res.json.hits.hits.map((h: { id: string }) => h.id)).toEqual(finds ? [restricted.id] : []);
      expect(res.json.hits.total).toBe(finds ? 1 : 0);
      const buckets = res.json.aggregations.access_status.buckets as { key: string; doc_count: number }[];
      expect(buckets.find((b) => b.key === "restricted")?.doc_count ?? 0).toBe(finds ? 1 : 0);
    });
  }

  test("OAI-PMH: never to harvesters (no identifier, no listing)", async () => {
    const list = await ctx.call("GET", "/oai2d?verb=ListIdentifiers&metadataPrefix=oai_dc");
    expect(list.text).not.toContain(restricted.id);
    const get = await ctx.call("GET", `/oai2d?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:127.0.0.1:${restricted.id}`);
    expect(get.text).toContain("idDoesNotExist");
    expect(get.text).not.toContain("Sea surface");
  });

  test("a grant covers every version: a version published after it is read by the grantee", async () => {
    const draft = await ctx.call("POST", `/api/records/${restricted.id}/versions`, { as: "alice" });
    expectStatus(draft, 201);
    const body = publishableDraft({
      access: { record: "restricted", files: "restricted" },
      files: { enabled: true },
      metadata: { ...draft.json.metadata, publication_date: "2026-11-21" },
    });
    expectStatus(await ctx.call("PUT", `/api/records/${draft.json.id}/draft`, { as: "alice", body }), 200);
    expectStatus(await ctx.call("POST", `/api/records/${draft.json.id}/draft/actions/files-import`, { as: "alice" }), 201);
    const v2 = await ctx.call("POST", `/api/records/${draft.json.id}/draft/actions/publish`, { as: "alice" });
    expectStatus(v2, 202);
    for (const who of ["viewer", "link"] as const) {
      const content = await call(who, "GET", `/api/records/${v2.json.id}/files/data.csv/content`);
      expectStatus(content, 200);
      expect(content.text).toBe(CONTENT);
    }
    expect((await call("bob", "GET", `/api/records/${v2.json.id}/files/data.csv/content`)).status).toBe(403);
  });

  test("a secret link opens the record even inside a restricted community its holder is not a member of", async () => {
    const community = await ctx.call("POST", "/api/communities", {
      as: "admin",
      body: { slug: "closed-lab", access: { visibility: "restricted", member_policy: "closed", record_policy: "closed" }, metadata: { title: "Closed lab" } },
    });
    expectStatus(community, 201);
    const added = await ctx.call("POST", `/api/records/${restricted.id}/communities`, { as: "admin", body: { communities: [{ id: community.json.id }] } });
    expectStatus(added, 200);
    expectStatus(await ctx.call("POST", `/api/requests/${added.json.processed[0].request_id}/actions/accept`, { as: "admin" }), 200);
    const read = await call("link", "GET", `/api/records/${restricted.id}`);
    expectStatus(read, 200);
    const content = await call("link", "GET", `/api/records/${restricted.id}/files/data.csv/content`);
    expect(content.text).toBe(CONTENT);
  });

  test("a grant that expires stops at its expiry on the injected clock, in reads and searches alike", async () => {
    const db = ctx.services.deps.db;
    const now = ctx.clock.now();
    const user = await ctx.services.users.createUser(systemActor, { email: "temporary@example.org", username: "temporary", password: "temporary-password" });
    const token = (await ctx.services.tokens.createToken(systemActor, { userId: user.id, name: "temporary" })).secret;
    await accessStore.insertGrant(db, {
      parentId: restricted.parent.id,
      subjectType: "user",
      subjectId: String(user.id),
      permission: "view",
      origin: "test",
      expiresAt: now + DAY,
      created: now,
      updated: now,
    });
    const read = () => ctx.call("GET", `/api/records/${restricted.id}`, { token });
    // The latest version (a newer one may have been published by now): searches list latest versions.
    const found = async () => (await ctx.call("GET", `/api/records?q=parent.id:${restricted.parent.id}`, { token })).json.hits.total;
    expectStatus(await read(), 200);
    expect(await found()).toBe(1);
    ctx.clock.advance(DAY + 1);
    expect((await read()).status).toBe(403);
    expect(await found()).toBe(0);
  });
});

describe("a public record with restricted files", () => {
  for (const who of CALLERS) {
    const reads = READERS.includes(who);
    test(`${who}: the metadata for everyone; entries, list, content, range and archive ${reads ? "readable" : "refused"}`, () =>
      withFilesOnlyLinks(async () => {
        const id = filesOnly.id;
        const record = await call(who, "GET", `/api/records/${id}`);
        expectStatus(record, 200);
        expect(record.json.metadata.title).toBeString();
        expect(Object.keys(record.json.files.entries)).toEqual(reads ? ["data.csv"] : []);
        const exported = await call(who, "GET", `/records/${id}/export/json`);
        expectStatus(exported, 200);
        const found = await call(who, "GET", `/api/records?q=id:${id}`);
        expect(found.json.hits.total).toBe(1);
        const hit = found.json.hits.hits[0];
        expect(Object.keys(hit.files.entries ?? {})).toEqual(reads ? ["data.csv"] : []);
        const list = await call(who, "GET", `/api/records/${id}/files`);
        const content = await call(who, "GET", `/api/records/${id}/files/data.csv/content`);
        const range = await call(who, "GET", `/api/records/${id}/files/data.csv/content`, { headers: { range: "bytes=0-6" } });
        const archive = await call(who, "GET", `/api/records/${id}/files-archive`);
        if (reads) {
          expectStatus(list, 200);
          expect(content.text).toBe(CONTENT);
          expect(range.status).toBe(206);
          expectStatus(archive, 200);
        } else {
          for (const res of [list, content, range, archive]) expect(res.status).toBe(refusal(who));
          expect(content.text).not.toContain("station");
        }
      }));
  }

  test("OAI-PMH lists the public record without its restricted files' links", async () => {
    const get = await ctx.call("GET", `/oai2d?verb=GetRecord&metadataPrefix=oai_datacite&identifier=oai:127.0.0.1:${filesOnly.id}`);
    expect(get.status).toBe(200);
    expect(get.text).toContain(filesOnly.id);
    expect(get.text).not.toContain("data.csv/content");
  });
});
