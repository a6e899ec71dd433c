// Storage quotas: administrators set a record's bucket and a user's total (InvenioRDM's endpoints),
// refused to everyone else; plain, multipart and fetched uploads beyond either quota are refused
// with a 400 naming the quota and the space left, and nothing of them stays behind.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { systemActor } from "../../src/core/actor";
import { createTestApp, expectStatus, type TestApp } from "../helpers/app";
import { octet, uploadFile } from "../helpers/files";
import { draftWithFiles, publishDraft } from "../helpers/records";

let t: TestApp;
let origin: Bun.Server<undefined>;
const served = "0123456789".repeat(10); // 100 bytes
beforeAll(async () => {
  origin = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/sized.bin") return new Response(served);
      // No Content-Length: the size is only known as the bytes arrive.
      if (path === "/streamed.bin")
        return new Response(
          // A direct stream flushed chunk by chunk: Bun sends it chunked, without a length.
          new ReadableStream({
            type: "direct",
            async pull(controller: { write(chunk: string): void; flush(): Promise<unknown>; close(): void }) {
              for (let i = 0; i < 10; i++) {
                controller.write("0123456789");
                await controller.flush();
              }
              controller.close();
            },
          } as unknown as ConstructorParameters<typeof ReadableStream>[0]),
        );
      return new Response("nope", { status: 404 });
    },
  });
  t = await createTestApp({ RECORDS_RESOURCES_FILES_ALLOWED_DOMAINS: ["127.0.0.1"] });
});
afterAll(async () => {
  await t.close();
  await origin.stop(true);
});

const filesOf = (id: string) => `/api/records/${id}/draft/files`;
const setRecordQuota = (id: string, body: unknown, as: "admin" | "alice" | "bob" | "anonymous" = "admin") => t.call("POST", `/api/records/${id}/quota`, { as, body });
const setUserQuota = (id: number | string, body: unknown, as: "admin" | "alice" | "bob" | "anonymous" = "admin") => t.call("POST", `/api/records/users/${id}/quota`, { as, body });

/** Everything stored: object rows, object files on disk, staged and part files. */
async function storedBytes() {
  const rows = await t.services.deps.db.statements.all<{ n: number }>("SELECT count(*) AS n FROM file_objects");
  const root = join(t.dataDir, "files");
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)]));
  return { objects: rows[0]!.n, objectFiles: walk(join(root, "objects")).length, tmp: walk(join(root, "tmp")).length, parts: walk(join(root, "parts")).length };
}

/** Starts a file, the body as given (sizes, transfer). */
async function start(id: string, entry: Record<string, unknown>) {
  return t.call("POST", filesOf(id), { as: "alice", body: [entry] });
}

function chunked(chunks: number, chunk = "abcdefgh") {
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < chunks; i++) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
}

describe("setting quotas (administrators only)", () => {
  test("POST /api/records/{id}/quota: 200 for an administrator, audited; 401, 403, 404 and 400 for the rest", async () => {
    const id = await draftWithFiles(t);
    const ok = await setRecordQuota(id, { quota_size: 1000, max_file_size: 500, notes: "agreed with the PI" });
    expectStatus(ok, 200);
    expect(ok.json).toEqual({ quota_size: 1000, max_file_size: 500, notes: "agreed with the PI" });
    expect(await t.services.quotas.readRecordUsage(systemActor, id)).toEqual({ quota_size: 1000, max_file_size: 500, used: 0, notes: "agreed with the PI", custom: true });
    const audit = await t.services.audit.search(systemActor, { action: "record.quota", targetId: id });
    expect(audit.entries.map((e) => [e.actorLabel, e.via, e.targetType, e.details.quota_size, e.details.previous])).toEqual([["admin@example.org", "api", "record", 1000, null]]);

    expect((await setRecordQuota(id, { quota_size: 1 }, "anonymous")).status).toBe(401);
    expect((await setRecordQuota(id, { quota_size: 1 }, "alice")).status).toBe(403);
    expect((await setRecordQuota(id, { quota_size: 1 }, "bob")).status).toBe(403);
    expect((await setRecordQuota("nope0-00000", { quota_size: 1 })).status).toBe(404);
    const bad: [unknown, string][] = [
      [{ quota_size: -1 }, "quota_size"],
      [{ quota_size: "10GB" }, "quota_size"],
      [{ quota_size: 1.5 }, "quota_size"],
      [{ max_file_size: 10 }, "quota_size"],
      [{ quota_size: 10, max_file_size: -5 }, "max_file_size"],
      [{ quota_size: 10, size: 3 }, "size"],
      [{ quota_size: 10, notes: 7 }, "notes"],
    ];
    for (const [body, field] of bad) {
      const r = await setRecordQuota(id, body);
      expect({ body, status: r.status, fields: r.json.errors?.map((e: { field: string }) => e.field) }).toEqual({ body, status: 400, fields: [field] });
    }
    expect((await setRecordQuota(id, [1])).status).toBe(400);
    // Refusals changed nothing.
    expect((await t.services.quotas.readRecordUsage(systemActor, id))!.quota_size).toBe(1000);
  });

  test("POST /api/records/users/{id}/quota: 200 for an administrator, audited; 401, 403, 404 and 400 for the rest", async () => {
    const alice = t.users.alice.user.id;
    const ok = await setUserQuota(alice, { quota_size: 5000, notes: "" });
    expectStatus(ok, 200);
    expect(ok.json).toEqual({ quota_size: 5000, max_file_size: null, notes: "" });
    const audit = await t.services.audit.search(systemActor, { action: "user.quota", targetId: String(alice) });
    expect(audit.entries.map((e) => [e.via, e.targetType, e.details.quota_size])).toEqual([["api", "user", 5000]]);
    expect((await setUserQuota(alice, { quota_size: 1 }, "anonymous")).status).toBe(401);
    expect((await setUserQuota(alice, { quota_size: 1 }, "alice")).status).toBe(403);
    expect((await setUserQuota(alice, { quota_size: 1 }, "bob")).status).toBe(403);
    expect((await setUserQuota(999999, { quota_size: 1 })).status).toBe(404);
    expect((await setUserQuota("abc", { quota_size: 1 })).status).toBe(404);
    expect((await setUserQuota(alice, { quota_size: -3 })).status).toBe(400);
    expect((await setUserQuota(alice, {})).status).toBe(400);
    const asUser = (userId: number) => ({ kind: "user" as const, userId, isAdmin: false, groupIds: [], scopes: [], tokenId: null });
    expect((await t.services.quotas.readUserUsage(asUser(alice), alice)).quota_size).toBe(5000);
    await expect(t.services.quotas.readUserUsage(asUser(t.users.bob.user.id), alice)).rejects.toMatchObject({ status: 403 });
    // Back to no limit for the scenarios below.
    expectStatus(await setUserQuota(alice, { quota_size: 0 }), 200);
  });
});

describe("a record's quota", () => {
  test("a plain upload with a known length beyond the quota is refused before any byte; the entry stays pending and empty", async () => {
    const id = await draftWithFiles(t);
    await uploadFile(t, id, "first.txt", "x".repeat(30));
    expectStatus(await setRecordQuota(id, { quota_size: 40 }), 200);
    const before = await storedBytes();
    expectStatus(await start(id, { key: "big.bin" }), 201);
    const r = await t.call("PUT", `${filesOf(id)}/big.bin/content`, { as: "alice", rawBody: "y".repeat(20), headers: { ...octet, "content-length": "20" } });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe("This file (20 bytes) would exceed this record's storage quota of 40 bytes: 10 bytes are left.");
    const entry = (await t.call("GET", `${filesOf(id)}/big.bin`, { as: "alice" })).json;
    expect([entry.status, entry.size ?? null, entry.checksum ?? null]).toEqual(["pending", null, null]);
    expect(await storedBytes()).toEqual(before);
    // What fits still goes in.
    expectStatus(await t.call("PUT", `${filesOf(id)}/big.bin/content`, { as: "alice", rawBody: "y".repeat(10), headers: octet }), 200);
  });

  test("a chunked upload is stopped where the space left ends, and nothing of it is kept", async () => {
    const id = await draftWithFiles(t);
    expectStatus(await setRecordQuota(id, { quota_size: 20 }), 200);
    expectStatus(await start(id, { key: "stream.bin" }), 201);
    const before = await storedBytes();
    const r = await t.call("PUT", `${filesOf(id)}/stream.bin/content`, { as: "alice", rawBody: chunked(5), headers: octet });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe("This upload would exceed this record's storage quota of 20 bytes: 20 bytes are left.");
    expect(await storedBytes()).toEqual(before);
    expect((await t.call("GET", `${filesOf(id)}/stream.bin`, { as: "alice" })).json.status).toBe("pending");
  });

  test("announced sizes beyond the quota are refused when the files are started (nothing created); a file over max_file_size is a 413", async () => {
    const id = await draftWithFiles(t);
    expectStatus(await setRecordQuota(id, { quota_size: 100, max_file_size: 60 }), 200);
    const two = await t.call("POST", filesOf(id), {
      as: "alice",
      body: [
        { key: "a.bin", size: 50 },
        { key: "b.bin", size: 55 },
      ],
    });
    expect(two.status).toBe(400);
    expect(two.json.message).toBe("These 2 files (105 bytes together) would exceed this record's storage quota of 100 bytes: 100 bytes are left.");
    const multipart = await start(id, { key: "m.bin", size: 101, transfer: { type: "M", parts: 2, part_size: 60 } });
    expect(multipart.status).toBe(413);
    expect((await t.call("GET", filesOf(id), { as: "alice" })).json.entries).toEqual([]);
    const tooBig = await start(id, { key: "one.bin", size: 61 });
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.message).toBe("The request body is larger than the limit of 60 bytes.");
    // A started upload reserves its announced size.
    expectStatus(await start(id, { key: "m.bin", size: 60, transfer: { type: "M", parts: 2, part_size: 30 } }), 201);
    const next = await start(id, { key: "c.bin", size: 50 });
    expect(next.status).toBe(400);
    expect(next.json.message).toBe("This file (50 bytes) would exceed this record's storage quota of 100 bytes: 40 bytes are left.");
  });

  test("multipart: parts are refused once the announced size no longer fits, at part upload and at commit, and the parts are dropped", async () => {
    const id = await draftWithFiles(t);
    expectStatus(await start(id, { key: "m.bin", size: 10, transfer: { type: "M", parts: 3, part_size: 4 } }), 201);
    expectStatus(await t.call("PUT", `${filesOf(id)}/m.bin/content/1`, { as: "alice", rawBody: "0123", headers: octet }), 200);
    expect((await storedBytes()).parts).toBe(1);
    expectStatus(await setRecordQuota(id, { quota_size: 8 }), 200);
    const refused = await t.call("PUT", `${filesOf(id)}/m.bin/content/2`, { as: "alice", rawBody: "4567", headers: octet });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe("This file (10 bytes) would exceed this record's storage quota of 8 bytes: 8 bytes are left.");
    const entry = (await t.call("GET", `${filesOf(id)}/m.bin`, { as: "alice" })).json;
    expect([entry.status, entry.transfer.uploaded_parts]).toEqual(["pending", []]);
    expect((await storedBytes()).parts).toBe(0);

    // All parts in, then the quota lowered: the commit is refused and the parts go.
    expectStatus(await setRecordQuota(id, { quota_size: 100 }), 200);
    for (const [part, bytes] of [
      [1, "0123"],
      [2, "4567"],
      [3, "89"],
    ] as const)
      expectStatus(await t.call("PUT", `${filesOf(id)}/m.bin/content/${part}`, { as: "alice", rawBody: bytes, headers: octet }), 200);
    expectStatus(await setRecordQuota(id, { quota_size: 9 }), 200);
    const before = await storedBytes();
    const commit = await t.call("POST", `${filesOf(id)}/m.bin/commit`, { as: "alice" });
    expect(commit.status).toBe(400);
    expect(commit.json.message).toBe("This file (10 bytes) would exceed this record's storage quota of 9 bytes: 9 bytes are left.");
    expect(await storedBytes()).toEqual({ ...before, parts: 0 });
    expect((await t.call("GET", `${filesOf(id)}/m.bin`, { as: "alice" })).json.transfer.uploaded_parts).toEqual([]);
  });

  test("fetched files: refused before the download when the size is known, stopped during it when not; the entry says why", async () => {
    const id = await draftWithFiles(t);
    expectStatus(await setRecordQuota(id, { quota_size: 50 }), 200);
    const before = await storedBytes();
    for (const name of ["sized.bin", "streamed.bin"]) expectStatus(await start(id, { key: name, uri: `http://127.0.0.1:${origin.port}/${name}`, storage_class: "F" }), 201);
    await t.services.worker.drain();
    for (const [name, message] of [
      ["sized.bin", "This file (100 bytes) would exceed this record's storage quota of 50 bytes: 50 bytes are left."],
      ["streamed.bin", "This upload would exceed this record's storage quota of 50 bytes: 50 bytes are left."],
    ]) {
      const entry = (await t.call("GET", `${filesOf(id)}/${name}`, { as: "alice" })).json;
      expect({ name, status: entry.status, transfer: entry.transfer }).toMatchObject({ name, status: "pending", transfer: { type: "F", status: "failed", error: message } });
    }
    expect(await storedBytes()).toEqual(before);
    const publish = await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    expect(publish.status).toBe(400);
  });
});

describe("a user's quota", () => {
  test("counts the user's files across all their drafts and records; bytes shared between versions count once", async () => {
    const bob = t.users.bob.user.id;
    expectStatus(await setUserQuota(bob, { quota_size: 50 }), 200);
    const first = await draftWithFiles(t, { as: "bob" });
    await uploadFile(t, first, "a.txt", "a".repeat(30), { as: "bob" });
    const second = await draftWithFiles(t, { as: "bob" });
    expectStatus(await t.call("POST", filesOf(second), { as: "bob", body: [{ key: "b.txt" }] }), 201);
    const r = await t.call("PUT", `${filesOf(second)}/b.txt/content`, { as: "bob", rawBody: "b".repeat(30), headers: { ...octet, "content-length": "30" } });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe("This file (30 bytes) would exceed the owner's storage quota (all their drafts and records together) of 50 bytes: 20 bytes are left.");
    expectStatus(await t.call("PUT", `${filesOf(second)}/b.txt/content`, { as: "bob", rawBody: "b".repeat(20), headers: octet }), 200);
    expect((await t.services.quotas.readUserUsage(systemActor, bob)).used).toBe(50);

    // A new version imports the published files: shared bytes, not new ones.
    await publishDraft(t, first, { as: "bob" });
    const version = await t.call("POST", `/api/records/${first}/versions`, { as: "bob" });
    expectStatus(version, 201);
    expectStatus(await t.call("POST", `/api/records/${version.json.id}/draft/actions/files-import`, { as: "bob" }), 201);
    expect((await t.services.quotas.readUserUsage(systemActor, bob)).used).toBe(50);
    expect((await t.services.quotas.readRecordUsage(systemActor, version.json.id))!.used).toBe(30);
  });
});
