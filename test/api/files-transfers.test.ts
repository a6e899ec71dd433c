// Multipart uploads (parts in any order, re-sent, resumed after a restart) and fetched files
// (trusted hosts only, redirects checked, transferred by a background job) against a local server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { createApp } from "../../src/app";
import { fetchRefusal, isPrivateAddress } from "../../src/files/policy";
import { createTestApp, type TestApp } from "../helpers/app";
import { md5, octet } from "../helpers/files";
import { draftWithFiles } from "../helpers/records";

let t: TestApp;
let origin: Bun.Server<undefined>;
const served = "fetched bytes from the source server\n".repeat(100);
beforeAll(async () => {
  origin = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (request.headers.get("authorization")) return new Response("credentials must not be sent", { status: 400 });
      if (path === "/data.bin") return new Response(served);
      if (path === "/hop") return Response.redirect(`http://127.0.0.1:${origin.port}/data.bin`, 302);
      if (path === "/away") return Response.redirect(`http://localhost:${origin.port}/data.bin`, 302);
      if (path === "/down") return new Response("down for maintenance", { status: 503 });
      return new Response("nope", { status: 404 });
    },
  });
  t = await createTestApp({ RECORDS_RESOURCES_FILES_ALLOWED_DOMAINS: ["127.0.0.1"] });
});
afterAll(async () => {
  await t.close();
  await origin.stop(true);
});

describe("multipart transfers", () => {
  const content = "0123456789"; // 3 parts of 4 bytes: 4 + 4 + 2

  test("parts in any order and in parallel, a re-sent part replaces itself, commit assembles and checks", async () => {
    const id = await draftWithFiles(t);
    const path = `/api/records/${id}/draft/files`;
    const started = await t.call("POST", path, {
      as: "alice",
      body: [{ key: "big.bin", size: 10, checksum: `md5:${md5(content)}`, transfer: { type: "M", parts: 3, part_size: 4 } }],
    });
    expect(started.status).toBe(201);
    const entry = started.json.entries[0];
    expect(entry.transfer).toEqual({ type: "M", parts: 3, part_size: 4, uploaded_parts: [] });
    expect(entry.links.parts).toEqual([1, 2, 3].map((part) => ({ part, url: `${path}/big.bin/content/${part}` })));

    expect((await t.call("PUT", `${path}/big.bin/content/1`, { as: "alice", rawBody: "XXXX", headers: octet })).status).toBe(200);
    const [third, first] = await Promise.all([
      t.call("PUT", `${path}/big.bin/content/3`, { as: "alice", rawBody: "89", headers: octet }),
      t.call("PUT", `${path}/big.bin/content/1`, { as: "alice", rawBody: "0123", headers: octet }),
    ]);
    expect([third.status, first.status]).toEqual([200, 200]);
    const seen = await t.call("GET", `${path}/big.bin`, { as: "alice" });
    expect(seen.json.transfer.uploaded_parts).toEqual([1, 3]);

    const early = await t.call("POST", `${path}/big.bin/commit`, { as: "alice" });
    expect(early.status).toBe(400);
    expect(early.json.message).toBe("Parts not uploaded yet: 2.");
    const wrongSize = await t.call("PUT", `${path}/big.bin/content/2`, { as: "alice", rawBody: "456", headers: octet });
    expect(wrongSize.status).toBe(400);
    expect((await t.call("PUT", `${path}/big.bin/content/4`, { as: "alice", rawBody: "x", headers: octet })).status).toBe(400);
    expect((await t.call("PUT", `${path}/big.bin/content`, { as: "alice", rawBody: content, headers: octet })).status).toBe(400);

    await t.call("PUT", `${path}/big.bin/content/2`, { as: "alice", rawBody: "4567", headers: octet });
    const committed = await t.call("POST", `${path}/big.bin/commit`, { as: "alice" });
    expect(committed.status).toBe(200);
    expect(committed.json).toMatchObject({ status: "completed", size: 10, checksum: `md5:${md5(content)}` });
    expect((await t.call("GET", `${path}/big.bin/content`, { as: "alice" })).text).toBe(content);
  });

  test("a multipart transfer resumes after a server restart", async () => {
    const id = await draftWithFiles(t);
    const path = `/api/records/${id}/draft/files`;
    await t.call("POST", path, { as: "alice", body: [{ key: "resume.bin", size: 10, transfer: { type: "M", parts: 3, part_size: 4 } }] });
    await t.call("PUT", `${path}/resume.bin/content/1`, { as: "alice", rawBody: "0123", headers: octet });
    await t.call("PUT", `${path}/resume.bin/content/2`, { as: "alice", rawBody: "4567", headers: octet });

    // A second server process on the same data directory, as after a restart.
    await t.services.close();
    const restarted = createApp({ config: t.config, clock: t.clock, log: () => {} });
    await restarted.services.files.cleanStore();
    const call = (method: string, url: string, body?: string) =>
      restarted.app.handle(new Request(`http://127.0.0.1:5000${url}`, { method, body, headers: { authorization: `Bearer ${t.users.alice.token}`, ...(body ? octet : {}) } }));
    const seen = (await (await call("GET", `${path}/resume.bin`)).json()) as any;
    expect(seen.transfer.uploaded_parts).toEqual([1, 2]);
    expect((await call("PUT", `${path}/resume.bin/content/3`, "89")).status).toBe(200);
    const committed = await (await call("POST", `${path}/resume.bin/commit`)).json();
    expect(committed).toMatchObject({ status: "completed", size: 10, checksum: `md5:${md5(content)}` });
    await restarted.services.close();
    rmSync(t.dataDir, { recursive: true, force: true });
    // The rest of this file uses a fresh app.
    t = await createTestApp({ RECORDS_RESOURCES_FILES_ALLOWED_DOMAINS: ["127.0.0.1"] });
  });

  test("a layout that does not cover the size is refused", async () => {
    const id = await draftWithFiles(t);
    const r = await t.call("POST", `/api/records/${id}/draft/files`, { as: "alice", body: [{ key: "x", size: 20, transfer: { type: "M", parts: 2, part_size: 4 } }] });
    expect(r.status).toBe(400);
    expect(r.json.errors[0].field).toBe("0.transfer.parts");
  });
});

describe("fetched files", () => {
  const fetchBody = (uri: string, key = "f.bin") => [{ key, uri, storage_class: "F" }];

  test("from a trusted host: queued, content and commit refused meanwhile, publish waits, then completed as L", async () => {
    const id = await draftWithFiles(t);
    const path = `/api/records/${id}/draft/files`;
    const uri = `http://127.0.0.1:${origin.port}/data.bin`;
    const started = await t.call("POST", path, { as: "alice", body: fetchBody(uri) });
    expect(started.status).toBe(201);
    expect(started.json.entries[0]).toMatchObject({ key: "f.bin", status: "pending", storage_class: "F", uri });
    const put = await t.call("PUT", `${path}/f.bin/content`, { as: "alice", rawBody: "x", headers: octet });
    expect(put.status).toBe(400);
    expect(put.json.message).toContain("being fetched");
    expect((await t.call("POST", `${path}/f.bin/commit`, { as: "alice" })).status).toBe(400);
    const publish = await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    expect(publish.status).toBe(400);
    expect(publish.json.errors.map((e: any) => e.field)).toContain("files.entries");

    await t.services.worker.drain();
    const done = await t.call("GET", `${path}/f.bin`, { as: "alice" });
    expect(done.json).toMatchObject({ status: "completed", storage_class: "L", size: served.length, checksum: `md5:${md5(served)}` });
    expect((await t.call("GET", `${path}/f.bin/content`, { as: "alice" })).text).toBe(served);
    expect((await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" })).status).toBe(202);
  });

  test("a redirect on the trusted host is followed", async () => {
    const id = await draftWithFiles(t);
    await t.call("POST", `/api/records/${id}/draft/files`, { as: "alice", body: fetchBody(`http://127.0.0.1:${origin.port}/hop`) });
    await t.services.worker.drain();
    expect((await t.call("GET", `/api/records/${id}/draft/files/f.bin`, { as: "alice" })).json.status).toBe("completed");
  });

  test("an untrusted host is refused at once", async () => {
    const id = await draftWithFiles(t);
    const r = await t.call("POST", `/api/records/${id}/draft/files`, { as: "alice", body: fetchBody("https://example.org/data.bin") });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([{ field: "0.uri", messages: [expect.stringContaining("not in the trusted domains")] }]);
    expect((await t.call("GET", `/api/records/${id}/draft/files`, { as: "alice" })).json.entries).toEqual([]);
  });

  test("a redirect to an untrusted host fails the transfer, visibly on the entry", async () => {
    const id = await draftWithFiles(t);
    await t.call("POST", `/api/records/${id}/draft/files`, { as: "alice", body: fetchBody(`http://127.0.0.1:${origin.port}/away`) });
    await t.services.worker.drain();
    const entry = (await t.call("GET", `/api/records/${id}/draft/files/f.bin`, { as: "alice" })).json;
    expect(entry).toMatchObject({ status: "pending", storage_class: "F" });
    expect(entry.transfer.error).toContain("untrusted location");
    expect(entry.transfer.error).toContain("'localhost'");
  });

  test("a missing source (404) is recorded without endless retries", async () => {
    const id = await draftWithFiles(t);
    await t.call("POST", `/api/records/${id}/draft/files`, { as: "alice", body: fetchBody(`http://127.0.0.1:${origin.port}/missing`) });
    await t.services.worker.drain();
    const entry = (await t.call("GET", `/api/records/${id}/draft/files/f.bin`, { as: "alice" })).json;
    expect(entry.transfer).toMatchObject({ type: "F", attempts: 1, error: "The server answered 404 Not Found." });
  });
});

describe("fetches that fail for good", () => {
  const fetchBody = (uri: string, key = "f.bin") => [{ key, uri, storage_class: "F" }];
  const entryOf = async (id: string) => (await t.call("GET", `/api/records/${id}/draft/files/f.bin`, { as: "alice" })).json;

  test("a refused fetch (404) is marked failed; publishing names the file and why; deleting and adding it again recovers", async () => {
    const id = await draftWithFiles(t);
    const path = `/api/records/${id}/draft/files`;
    const missing = `http://127.0.0.1:${origin.port}/missing`;
    await t.call("POST", path, { as: "alice", body: fetchBody(missing) });
    await t.services.worker.drain();
    const entry = await entryOf(id);
    expect(entry).toMatchObject({ key: "f.bin", status: "pending", storage_class: "F", uri: missing });
    expect(entry.transfer).toEqual({ type: "F", attempts: 1, error: "The server answered 404 Not Found.", status: "failed" });

    const publish = await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    expect(publish.status).toBe(400);
    expect(publish.json.errors).toContainEqual({
      field: "files.entries",
      messages: [`The file 'f.bin' could not be fetched from ${missing}: The server answered 404 Not Found. Delete it, or delete it and add it again.`],
    });

    // Not tried again, even much later.
    t.clock.advance(2 * 3_600_000);
    await t.services.worker.drain();
    expect((await entryOf(id)).transfer.attempts).toBe(1);

    expect((await t.call("DELETE", `${path}/f.bin`, { as: "alice" })).status).toBe(204);
    expect((await t.call("POST", path, { as: "alice", body: fetchBody(`http://127.0.0.1:${origin.port}/data.bin`) })).status).toBe(201);
    await t.services.worker.drain();
    expect(await entryOf(id)).toMatchObject({ status: "completed", transfer: { type: "L" } });
    expect((await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" })).status).toBe(202);
  });

  test("a source that stays down is retried with backoff, and marked failed after the last attempt", async () => {
    const id = await draftWithFiles(t);
    await t.call("POST", `/api/records/${id}/draft/files`, { as: "alice", body: fetchBody(`http://127.0.0.1:${origin.port}/down`) });
    const seen = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      await t.services.worker.drain();
      seen.push((await entryOf(id)).transfer);
      t.clock.advance(3_600_000); // past the longest backoff
    }
    const error = "The server answered 503 Service Unavailable.";
    expect(seen).toEqual([1, 2, 3, 4].map((attempts) => ({ type: "F", attempts, error })).concat([{ type: "F", attempts: 5, error, status: "failed" } as never]));
    const publish = await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    expect(publish.json.errors).toContainEqual({
      field: "files.entries",
      messages: [expect.stringContaining(`The file 'f.bin' could not be fetched from http://127.0.0.1:${origin.port}/down: ${error}`)],
    });
  });
});

describe("fetch allow-list rules", () => {
  const resolver = (addresses: string[]) => async () => addresses;

  test("private and loopback addresses are refused unless the host is listed exactly", async () => {
    expect(await fetchRefusal("http://data.example.org/x", ["example.org"], resolver(["93.184.216.34"]))).toBeNull();
    expect(await fetchRefusal("http://data.example.org/x", ["example.org"], resolver(["10.1.2.3"]))).toContain("private or loopback");
    expect(await fetchRefusal("http://intranet.example.org/x", ["intranet.example.org"], resolver(["10.1.2.3"]))).toBeNull();
    expect(await fetchRefusal("http://evil-example.org/x", ["example.org"], resolver(["93.184.216.34"]))).toContain("not in the trusted domains");
    expect(await fetchRefusal("ftp://example.org/x", ["example.org"])).toContain("http");
  });

  test("address classes", () => {
    for (const a of ["127.0.0.1", "10.0.0.8", "172.16.5.4", "192.168.1.1", "169.254.169.254", "::1", "fd00::1", "fe80::1", "::ffff:127.0.0.1", "0.0.0.0"])
      expect(isPrivateAddress(a)).toBe(true);
    for (const a of ["93.184.216.34", "8.8.8.8", "2001:4860:4860::8888", "172.32.0.1"]) expect(isPrivateAddress(a)).toBe(false);
  });
});
