// Draft and record files: the upload sequence, rules, downloads with ranges and conditions,
// archives, locking, sharing between versions.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers/app";
import { cairn } from "../helpers/cli";
import { md5, octet, uploadFile } from "../helpers/files";
import { draftWithFiles, publishableDraft, publishRecord } from "../helpers/records";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RDM_RECORDS_MAX_FILES_COUNT: 3, RDM_FILES_DEFAULT_MAX_FILE_SIZE: 1000 });
});
afterAll(() => t.close());

describe("upload sequence", () => {
  test("create, start, upload, commit, publish; the record lists and serves the file", async () => {
    const id = await draftWithFiles(t);
    const path = `/api/records/${id}/draft/files`;
    const started = await t.call("POST", path, { as: "alice", body: [{ key: "data.csv" }] });
    expect(started.json.entries).toHaveLength(1);
    expect(started.json.entries[0]).toMatchObject({ key: "data.csv", status: "pending", storage_class: "L", metadata: null });
    expect(started.json.entries[0].links).toEqual({ self: `${path}/data.csv`, content: `${path}/data.csv/content`, commit: `${path}/data.csv/commit` });
    expect(started.json.entries[0].checksum).toBeUndefined();

    const put = await t.call("PUT", `${path}/data.csv/content`, { as: "alice", rawBody: "a,b\n1,2\n", headers: octet });
    expect(put.json.status).toBe("pending");
    const committed = await t.call("POST", `${path}/data.csv/commit`, { as: "alice" });
    expect(committed.json).toMatchObject({ key: "data.csv", status: "completed", checksum: `md5:${md5("a,b\n1,2\n")}`, size: 8, mimetype: "text/csv" });
    expect(committed.json.file_id).toMatch(/^[0-9a-f-]{36}$/);

    const listing = await t.call("GET", path, { as: "alice" });
    expect(listing.json).toMatchObject({ enabled: true, default_preview: null, order: [], links: { self: path } });
    expect(listing.json.entries.map((e: any) => e.key)).toEqual(["data.csv"]);

    const draft = await t.call("GET", `/api/records/${id}/draft`, { as: "alice" });
    expect(draft.json.files).toMatchObject({ enabled: true, count: 1, total_bytes: 8 });
    expect(draft.json.errors).toBeUndefined();

    const published = await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    expect(published.status).toBe(202);
    expect(published.json.files.entries["data.csv"]).toMatchObject({ checksum: `md5:${md5("a,b\n1,2\n")}`, size: 8, ext: "csv" });

    const recordFiles = await t.call("GET", `/api/records/${id}/files`);
    expect(recordFiles.status).toBe(200);
    expect(recordFiles.json.entries[0]).toMatchObject({
      key: "data.csv",
      status: "completed",
      links: { self: `/api/records/${id}/files/data.csv`, content: `/api/records/${id}/files/data.csv/content` },
    });
    const content = await t.call("GET", `/api/records/${id}/files/data.csv/content`);
    expect(content.status).toBe(200);
    expect(content.text).toBe("a,b\n1,2\n");
    expect(content.headers.get("content-length")).toBe("8");
    expect(content.headers.get("etag")).toBe(`"md5:${md5("a,b\n1,2\n")}"`);
    expect(content.headers.get("content-md5")).toBe(createHash("md5").update("a,b\n1,2\n").digest("base64"));
    expect(content.headers.get("content-disposition")).toContain('filename="data.csv"');
    expect(content.headers.get("content-type")).toBe("text/csv");
    expect(content.headers.get("last-modified")).toBe(new Date(t.clock.now()).toUTCString());
  });

  test("keys with folders and unicode work; path tricks are refused with 400", async () => {
    const id = await draftWithFiles(t);
    const entry = await uploadFile(t, id, "raw/données 1.txt", "héllo");
    expect(entry.key).toBe("raw/données 1.txt");
    expect(entry.links.content).toBe(`/api/records/${id}/draft/files/raw/donn%C3%A9es%201.txt/content`);
    const got = await t.call("GET", `/api/records/${id}/draft/files/raw/donn%C3%A9es%201.txt/content`, { as: "alice" });
    expect(got.text).toBe("héllo");
    for (const key of ["../etc/passwd", "a//b", "a/./b", "bad\u0001name", "x".repeat(1100), "/abs", ""]) {
      const r = await t.call("POST", `/api/records/${id}/draft/files`, { as: "alice", body: [{ key }] });
      expect(r.status).toBe(400);
      expect(r.json.errors[0].field).toBe("0.key");
    }
  });
});

describe("rules", () => {
  test("content needs application/octet-stream", async () => {
    const id = await draftWithFiles(t);
    await t.call("POST", `/api/records/${id}/draft/files`, { as: "alice", body: [{ key: "a.txt" }] });
    const r = await t.call("PUT", `/api/records/${id}/draft/files/a.txt/content`, { as: "alice", rawBody: "x", headers: { "content-type": "text/plain" } });
    expect(r.status).toBe(415);
    expect(r.json.message).toContain("application/octet-stream");
  });

  test("file count limit, duplicate keys, size limit (413), commit without content", async () => {
    const id = await draftWithFiles(t);
    const path = `/api/records/${id}/draft/files`;
    const dup = await t.call("POST", path, { as: "alice", body: [{ key: "a" }, { key: "a" }] });
    expect(dup.status).toBe(400);
    expect((await t.call("POST", path, { as: "alice", body: [{ key: "a" }, { key: "b" }, { key: "c" }] })).status).toBe(201);
    const again = await t.call("POST", path, { as: "alice", body: [{ key: "a" }] });
    expect(again.status).toBe(400);
    const tooMany = await t.call("POST", path, { as: "alice", body: [{ key: "d" }] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.message).toContain("at most 3 files");
    const big = await t.call("PUT", `${path}/a/content`, { as: "alice", rawBody: "x".repeat(1001), headers: octet });
    expect(big.status).toBe(413);
    const entry = await t.call("GET", `${path}/a`, { as: "alice" });
    expect(entry.json.status).toBe("pending");
    expect(entry.json.file_id).toBeNull();
    const commit = await t.call("POST", `${path}/b/commit`, { as: "alice" });
    expect(commit.status).toBe(400);
    expect(commit.json.message).toContain("No content");
  });

  test("declared size and checksum are verified at commit", async () => {
    const id = await draftWithFiles(t);
    const path = `/api/records/${id}/draft/files`;
    await t.call("POST", path, { as: "alice", body: [{ key: "s.bin", size: 3, checksum: `md5:${md5("abc")}` }] });
    const wrongLength = await t.call("PUT", `${path}/s.bin/content`, { as: "alice", rawBody: "abcd", headers: octet });
    expect(wrongLength.status).toBe(400);
    await t.call("PUT", `${path}/s.bin/content`, { as: "alice", rawBody: "abc", headers: octet });
    const ok = await t.call("POST", `${path}/s.bin/commit`, { as: "alice" });
    expect(ok.json).toMatchObject({ status: "completed", size: 3, checksum: `md5:${md5("abc")}` });
    await t.call("POST", path, { as: "alice", body: [{ key: "c.bin", checksum: `md5:${md5("zzz")}` }] });
    await t.call("PUT", `${path}/c.bin/content`, { as: "alice", rawBody: "abc", headers: octet });
    const bad = await t.call("POST", `${path}/c.bin/commit`, { as: "alice" });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("checksum");
  });

  test("publishing needs files unless metadata-only; pending files block; default_preview must be a file", async () => {
    const id = await draftWithFiles(t);
    const none = await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    expect(none.status).toBe(400);
    expect(none.json.errors.map((e: any) => e.field)).toContain("files.enabled");
    await uploadFile(t, id, "ok.txt", "fine");
    await t.call("POST", `/api/records/${id}/draft/files`, { as: "alice", body: [{ key: "late.txt" }] });
    const pending = await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    expect(pending.status).toBe(400);
    expect(pending.json.errors).toContainEqual({ field: "files.entries", messages: ["The file 'late.txt' has not been committed."] });
    await t.call("DELETE", `/api/records/${id}/draft/files/late.txt`, { as: "alice" });
    const draft = (await t.call("GET", `/api/records/${id}/draft`, { as: "alice" })).json;
    const put = await t.call("PUT", `/api/records/${id}/draft`, { as: "alice", body: { ...draft, files: { enabled: true, default_preview: "missing.txt" } } });
    expect(put.json.errors).toContainEqual({ field: "files.default_preview", messages: ["Default preview must be one of the uploaded files."] });
    await t.call("PUT", `/api/records/${id}/draft`, { as: "alice", body: { ...draft, files: { enabled: true, default_preview: "ok.txt" } } });
    const published = await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    expect(published.status).toBe(202);
    expect(published.json.files.default_preview).toBe("ok.txt");
  });

  test("files disabled on the draft: starting an upload is a 400", async () => {
    const created = await t.call("POST", "/api/records", { as: "alice", body: publishableDraft() });
    const r = await t.call("POST", `/api/records/${created.json.id}/draft/files`, { as: "alice", body: [{ key: "a.txt" }] });
    expect(r.status).toBe(400);
    expect(r.json.message).toContain("not enabled");
  });

  test("others may not touch a draft's files; writes on published records are refused", async () => {
    const id = await draftWithFiles(t);
    await uploadFile(t, id, "a.txt", "A");
    expect((await t.call("GET", `/api/records/${id}/draft/files`, { as: "bob" })).status).toBe(403);
    expect((await t.call("GET", `/api/records/${id}/draft/files`)).status).toBe(401);
    expect((await t.call("GET", `/api/records/${id}/draft/files/a.txt/content`, { as: "bob" })).status).toBe(403);
    await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    // Every write to a published record's files: 403 with the way to change them, the bytes untouched.
    const writes = [
      t.call("POST", `/api/records/${id}/files`, { as: "alice", body: [{ key: "c.txt" }] }),
      t.call("PUT", `/api/records/${id}/files/a.txt/content`, { as: "alice", rawBody: "x", headers: octet }),
      t.call("POST", `/api/records/${id}/files/a.txt/commit`, { as: "alice" }),
      t.call("DELETE", `/api/records/${id}/files/a.txt`, { as: "alice" }),
      t.call("PUT", `/api/records/${id}/files/a.txt`, { as: "admin", body: { metadata: {} } }),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(403);
      expect(res.json.message).toContain("publish a new version");
    }
    expect((await t.call("DELETE", `/api/records/${id}/files/a.txt`)).status).toBe(401);
    expect((await t.call("GET", `/api/records/${id}/files/a.txt/content`)).text).toBe("A");
    // The edit draft carries the record's files, locked.
    const edit = await t.call("POST", `/api/records/${id}/draft`, { as: "alice" });
    expect(edit.json.files.entries["a.txt"].checksum).toBe(`md5:${md5("A")}`);
    const add = await t.call("POST", `/api/records/${id}/draft/files`, { as: "alice", body: [{ key: "b.txt" }] });
    expect(add.status).toBe(403);
    expect((await t.call("DELETE", `/api/records/${id}/draft/files/a.txt`, { as: "alice" })).status).toBe(403);
    const republished = await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    expect(republished.status).toBe(202);
    expect(Object.keys(republished.json.files.entries)).toEqual(["a.txt"]);
  });

  test("a file's metadata is updated with PUT", async () => {
    const id = await draftWithFiles(t);
    await uploadFile(t, id, "img.png", "not really a png");
    const r = await t.call("PUT", `/api/records/${id}/draft/files/img.png`, { as: "alice", body: { metadata: { width: 10, height: 20 } } });
    expect(r.status).toBe(200);
    expect(r.json.metadata).toEqual({ width: 10, height: 20 });
    expect((await t.call("GET", `/api/records/${id}/draft/files/img.png`, { as: "alice" })).json.metadata).toEqual({ width: 10, height: 20 });
  });
});

describe("restricted files and embargoes", () => {
  test("restricted files of a public record: metadata visible, entries and bytes not", async () => {
    const created = await t.call("POST", "/api/records", { as: "alice", body: publishableDraft({ files: { enabled: true }, access: { record: "public", files: "restricted" } }) });
    const id = created.json.id;
    await uploadFile(t, id, "secret.txt", "s3cret");
    await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    const anon = await t.call("GET", `/api/records/${id}`);
    expect(anon.status).toBe(200);
    expect(anon.json.files.entries).toEqual({});
    expect((await t.call("GET", `/api/records/${id}/files`)).status).toBe(401);
    expect((await t.call("GET", `/api/records/${id}/files/secret.txt/content`, { as: "bob" })).status).toBe(403);
    expect((await t.call("GET", `/api/records/${id}/files-archive`, { as: "bob" })).status).toBe(403);
    const owner = await t.call("GET", `/api/records/${id}/files/secret.txt/content`, { as: "alice" });
    expect(owner.text).toBe("s3cret");
    expect((await t.call("GET", `/api/records/${id}`, { as: "alice" })).json.files.entries["secret.txt"].size).toBe(6);
  });
});

describe("embargoed files", () => {
  test("files under an active embargo are for the owner only, then public once it is lifted", async () => {
    const until = "2027-01-31";
    const created = await t.call("POST", "/api/records", {
      as: "alice",
      body: publishableDraft({ files: { enabled: true }, access: { record: "public", files: "restricted", embargo: { active: true, until, reason: "Paper in review" } } }),
    });
    const id = created.json.id;
    await uploadFile(t, id, "embargoed.txt", "later");
    expect((await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" })).status).toBe(202);
    expect((await t.call("GET", `/api/records/${id}/files/embargoed.txt/content`, { as: "bob" })).status).toBe(403);
    expect((await t.call("GET", `/api/records/${id}/files/embargoed.txt/content`, { as: "alice" })).text).toBe("later");
    t.clock.set(Date.UTC(2027, 1, 1, 1, 0, 0));
    await t.services.jobs.runNow({ kind: "system" }, "embargo-lift");
    const afterwards = await t.call("GET", `/api/records/${id}/files/embargoed.txt/content`, { as: "bob" });
    expect(afterwards.status).toBe(200);
    expect(afterwards.text).toBe("later");
    t.clock.set(Date.UTC(2026, 10, 22, 12, 0, 0));
  });

  test("a draft with files cannot be marked metadata-only", async () => {
    const id = await draftWithFiles(t);
    await uploadFile(t, id, "a.txt", "A");
    const draft = (await t.call("GET", `/api/records/${id}/draft`, { as: "alice" })).json;
    const r = await t.call("PUT", `/api/records/${id}/draft`, { as: "alice", body: { ...draft, files: { enabled: false } } });
    expect(r.json.errors).toContainEqual({ field: "files.enabled", messages: ["This draft has files: delete them before marking the record as metadata-only."] });
  });
});

describe("downloads", () => {
  let id: string;
  const body = "0123456789abcdefghij";
  beforeAll(async () => {
    id = await draftWithFiles(t);
    await uploadFile(t, id, "r.txt", body);
    await uploadFile(t, id, "second.bin", "zz");
    await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
  });
  const url = () => `/api/records/${id}/files/r.txt/content`;

  test("single ranges give 206 with Content-Range; resume from any point", async () => {
    const r = await t.call("GET", url(), { headers: { range: "bytes=5-9" } });
    expect(r.status).toBe(206);
    expect(r.text).toBe("56789");
    expect(r.headers.get("content-range")).toBe("bytes 5-9/20");
    expect(r.headers.get("content-length")).toBe("5");
    expect((await t.call("GET", url(), { headers: { range: "bytes=15-" } })).text).toBe("fghij");
    expect((await t.call("GET", url(), { headers: { range: "bytes=-3" } })).text).toBe("hij");
  });

  test("several ranges come as multipart/byteranges", async () => {
    const r = await t.call("GET", url(), { headers: { range: "bytes=0-1,18-19" } });
    expect(r.status).toBe(206);
    expect(r.headers.get("content-type")).toMatch(/^multipart\/byteranges; boundary=/);
    expect(r.text).toContain("Content-Range: bytes 0-1/20\r\n\r\n01");
    expect(r.text).toContain("Content-Range: bytes 18-19/20\r\n\r\nij");
  });

  test("an unsatisfiable range is a 416 with the size", async () => {
    const r = await t.call("GET", url(), { headers: { range: "bytes=50-60" } });
    expect(r.status).toBe(416);
    expect(r.headers.get("content-range")).toBe("bytes */20");
  });

  test("conditional requests answer 304; HEAD has headers and no body", async () => {
    const first = await t.call("GET", url());
    const etag = first.headers.get("etag")!;
    expect((await t.call("GET", url(), { headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await t.call("GET", url(), { headers: { "if-none-match": '"md5:other"' } })).status).toBe(200);
    expect((await t.call("GET", url(), { headers: { "if-modified-since": first.headers.get("last-modified")! } })).status).toBe(304);
    const head = await t.call("HEAD", url());
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("content-length")).toBe("20");
  });

  test("files-archive streams a ZIP of every file", async () => {
    const r = await t.app.handle(new Request(`http://127.0.0.1:5000/api/records/${id}/files-archive`));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/zip");
    const bytes = new Uint8Array(await r.arrayBuffer());
    expect(String(bytes.length)).toBe(r.headers.get("content-length")!);
    const text = new TextDecoder("latin1").decode(bytes);
    expect(text.startsWith("PK\u0003\u0004")).toBe(true);
    expect(text).toContain("r.txt");
    expect(text).toContain(body);
    expect(text).toContain("second.bin");
  });
});

describe("storage", () => {
  const objects = () => {
    const root = join(t.dataDir, "files", "objects");
    return readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length;
  };

  test("an upload cut off half way leaves the file pending and no bytes behind", async () => {
    const id = await draftWithFiles(t);
    await t.call("POST", `/api/records/${id}/draft/files`, { as: "alice", body: [{ key: "cut.bin" }] });
    const before = objects();
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("partial"));
        c.error(new Error("connection reset"));
      },
    });
    const r = await t.call("PUT", `/api/records/${id}/draft/files/cut.bin/content`, { as: "alice", rawBody: stream, headers: octet });
    expect(r.status).toBe(400);
    expect((await t.call("GET", `/api/records/${id}/draft/files/cut.bin`, { as: "alice" })).json).toMatchObject({ status: "pending", file_id: null });
    expect(objects()).toBe(before);
    expect(readdirSync(join(t.dataDir, "files", "tmp"))).toEqual([]);
  });

  test("new versions share bytes through files-import; bytes go when nothing refers to them", async () => {
    const id = await draftWithFiles(t);
    await uploadFile(t, id, "shared.txt", "same bytes");
    await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    const before = objects();
    const v2 = await t.call("POST", `/api/records/${id}/versions`, { as: "alice" });
    const imported = await t.call("POST", `/api/records/${v2.json.id}/draft/actions/files-import`, { as: "alice" });
    expect(imported.status).toBe(201);
    expect(imported.json.entries.map((e: any) => [e.key, e.checksum])).toEqual([["shared.txt", `md5:${md5("same bytes")}`]]);
    expect(objects()).toBe(before);
    // A new upload in the draft, then discarding the draft: its own bytes go, the shared ones stay.
    await uploadFile(t, v2.json.id, "extra.txt", "only in v2");
    expect(objects()).toBe(before + 1);
    expect((await t.call("DELETE", `/api/records/${v2.json.id}/draft`, { as: "alice" })).status).toBe(204);
    await Bun.sleep(10); // removal runs right after the commit
    expect(objects()).toBe(before);
    expect((await t.call("GET", `/api/records/${id}/files/shared.txt/content`)).text).toBe("same bytes");
  });

  test("deleting an unpublished draft removes its files' bytes", async () => {
    const id = await draftWithFiles(t);
    const entry = await uploadFile(t, id, "gone.txt", "bye");
    const path = t.services.files.hooks ? join(t.dataDir, "files", "objects", entry.file_id.slice(0, 2), entry.file_id) : "";
    expect(existsSync(path)).toBe(true);
    await t.call("DELETE", `/api/records/${id}/draft`, { as: "alice" });
    await Bun.sleep(10);
    expect(existsSync(path)).toBe(false);
  });
});

describe("integrity", () => {
  test("the scheduled check and `cairn files verify` report bytes that changed on disk", async () => {
    const id = await draftWithFiles(t);
    const entry = await uploadFile(t, id, "kept.txt", "original");
    await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    const clean = cairn(["files", "verify", "--data", t.dataDir], {}, { clock: t.clock });
    expect(clean.stdout).toContain("all intact");
    expect(clean.code).toBe(0);

    await t.services.worker.drain(); // schedules start counting from here
    appendFileSync(join(t.dataDir, "files", "objects", entry.file_id.slice(0, 2), entry.file_id), "tampered");
    t.clock.advance(15 * 86_400_000);
    await t.services.worker.drain();
    const job = (await t.services.jobs.listJobs({ kind: "system" })).find((j) => j.name === "files-verify" && j.status === "succeeded");
    expect(job?.result).toMatchObject({ failures: 1 });
    expect(t.logs.some((l) => l.includes(entry.file_id) && l.includes("checksum is md5:"))).toBe(true);

    const damaged = cairn(["files", "verify", "--data", t.dataDir], {}, { clock: t.clock });
    expect(damaged.code).toBe(1);
    expect(damaged.stdout).toContain(`DAMAGED ${entry.file_id}: checksum is md5:${md5("originaltampered")}, expected md5:${md5("original")}`);
    expect(damaged.stdout).toContain(`${id}: kept.txt`);
    expect(cairn(["files", "check", "--data", t.dataDir], {}, { clock: t.clock }).code).toBe(2);
  });
});

describe("search by file type", () => {
  test("the file_type facet counts extensions and filters by them", async () => {
    const publishWith = async (title: string, key: string) =>
      (await publishRecord(t, publishableDraft({ files: { enabled: true }, metadata: { ...publishableDraft().metadata, title } }), { files: [[key, "x"]] })).id as string;
    const csv = await publishWith("Zanzibar tide gauges", "tides.CSV");
    const pdf = await publishWith("Zanzibar tide report", "report.pdf");
    const all = await t.call("GET", "/api/records?q=zanzibar");
    expect(all.json.hits.total).toBe(2);
    expect(all.json.aggregations.file_type.buckets).toEqual([
      { key: "csv", doc_count: 1, label: "CSV", is_selected: false },
      { key: "pdf", doc_count: 1, label: "PDF", is_selected: false },
    ]);
    const filtered = await t.call("GET", "/api/records?q=zanzibar&file_type=pdf");
    expect(filtered.json.hits.hits.map((h: any) => h.id)).toEqual([pdf]);
    expect(filtered.json.aggregations.file_type.buckets.find((b: any) => b.key === "pdf").is_selected).toBe(true);
    expect((await t.call("GET", "/api/records?q=zanzibar&file_type=csv")).json.hits.hits.map((h: any) => h.id)).toEqual([csv]);
  });
});

describe("download statistics", () => {
  test("a content response that sends bytes counts one download; HEAD, later ranges and draft reads do not", async () => {
    const id = await draftWithFiles(t);
    await uploadFile(t, id, "counted.txt", "0123456789");
    await t.call("GET", `/api/records/${id}/draft/files/counted.txt/content`, { as: "alice" });
    await t.call("POST", `/api/records/${id}/draft/actions/publish`, { as: "alice" });
    const url = `/api/records/${id}/files/counted.txt/content`;
    const ua = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0" };
    await t.call("GET", url, { as: "bob", headers: ua });
    await t.call("HEAD", url, { as: "bob", headers: ua });
    await t.call("GET", url, { as: "bob", headers: { ...ua, range: "bytes=5-" } });
    await t.services.stats.aggregate();
    const r = await t.call("POST", "/api/stats", { body: { d: { stat: "record-download", params: { recid: id } } } });
    expect(r.status).toBe(200);
    expect(r.json.d).toMatchObject({ recid: id, downloads: 1, unique_downloads: 1, data_volume: 10 });
  });
});
