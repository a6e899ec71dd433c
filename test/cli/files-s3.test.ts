// The S3 store from the command line and as a real server process, against an S3 protocol server
// on 127.0.0.1: `cairn files migrate --to s3` from a local store with published files (reads never
// stop; resumable and idempotent), `cairn files verify` on the bucket, and a server killed in the
// middle of S3 multipart uploads (restart: the transfer resumes, the orphan is aborted).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { createTestApp, expectStatus, type TestApp } from "../helpers/app";
import { cleanEnv, freePort, MAIN, serve } from "../helpers/cli";
import { md5, octet } from "../helpers/files";
import { draftWithFiles, publishDraft, publishableDraft } from "../helpers/records";
import { pseudoRandomBytes, startS3Server, type S3TestServer } from "../helpers/s3-server";
import { COMMUNITY_BODY } from "../helpers/communities";
import { dropDataDirDatabases, prepareDataDir, readRows } from "../helpers/data-dir";

const MiB = 1024 * 1024;
let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.stop();
  await dropDataDirDatabases();
});

/** `cairn ARGS` as a child process, awaited (the S3 server answers from this process meanwhile). */
async function cairn(args: string[], env: Record<string, string>) {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], { env: { ...cleanEnv(), ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const localObjects = (dataDir: string) => readdirSync(join(dataDir, "files", "objects")).flatMap((d) => readdirSync(join(dataDir, "files", "objects", d)));

describe("cairn files migrate --to s3, then cairn files verify", () => {
  let t: TestApp;
  let onS3: ReturnType<typeof createApp> | null = null;
  const big = pseudoRandomBytes(MiB + 17, 21);
  const files: Record<string, { id: string; key: string; md5: string }> = {};
  const env = () => ({ ...s3.env("m/"), CAIRN_HTTP: "true" });
  const download = async (app: { handle(r: Request): Promise<Response> }, f: { id: string; key: string }) =>
    md5(new Uint8Array(await (await app.handle(new Request(`http://127.0.0.1:5000/api/records/${f.id}/files/${f.key}/content`))).arrayBuffer()));

  beforeAll(async () => {
    t = await createTestApp();
    for (const [key, content] of [
      ["big.bin", big],
      ["notes.txt", "field notes\n"],
    ] as const) {
      const id = await draftWithFiles(t);
      expectStatus(await t.call("POST", `/api/records/${id}/draft/files`, { as: "alice", body: [{ key }] }), 201);
      expectStatus(await t.call("PUT", `/api/records/${id}/draft/files/${key}/content`, { as: "alice", rawBody: content, headers: octet }), 200);
      expectStatus(await t.call("POST", `/api/records/${id}/draft/files/${key}/commit`, { as: "alice" }), 200);
      await publishDraft(t, id);
      files[key] = { id, key, md5: md5(content) };
    }
    expectStatus(await t.call("POST", "/api/communities", { as: "alice", body: COMMUNITY_BODY("migrated") }), 201);
    expectStatus(await t.call("PUT", "/api/communities/migrated/logo", { as: "alice", rawBody: "<svg xmlns='http://www.w3.org/2000/svg'/>", headers: octet }), 200);
  });
  afterAll(async () => {
    await onS3?.services.close();
    await t.close();
  });

  test("on a server still on the local disk: every object is copied and checked, the local copies stay", async () => {
    expect(localObjects(t.dataDir)).toHaveLength(3);
    const run = await cairn(["files", "migrate", "--to", "s3", "--data", t.dataDir], { ...env(), CAIRN_FILES_STORAGE: "local" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      `3 local objects: 3 copied to s3://cairn-test/m/, 0 already there; 3 read back and their MD5 checked; local copies kept: set FILES_STORAGE = "s3", restart the server, and run this again to remove them\n`,
    );
    expect(run.code).toBe(0);
    expect(localObjects(t.dataDir)).toHaveLength(3);
    const inBucket = await s3.objects("m/");
    expect([...inBucket.keys()].sort()).toEqual(
      localObjects(t.dataDir)
        .map((id) => `m/${id}`)
        .sort(),
    );
  });

  test("after the switch to s3 the files read the same, from the local copies while they remain; new uploads go to the bucket", async () => {
    const [bigId] = localObjects(t.dataDir).filter((id) => md5(readFileSync(join(t.dataDir, "files", "objects", id.slice(0, 2), id))) === md5(big));
    // An earlier copy spoiled (an interrupted run, a changed object) and one missing: the next run repairs both.
    await s3.client.write(`m/${bigId}`, new Uint8Array(big.length));
    await s3.client.delete(`m/${localObjects(t.dataDir).find((id) => id !== bigId)}`);
    onS3 = createApp({ config: { ...t.config, ...s3.settings("m/") }, clock: t.clock, log: () => {} });
    for (const f of Object.values(files))
      expect(await onS3.app.handle(new Request(`http://127.0.0.1:5000/api/records/${f.id}/files/${f.key}/content`)).then((r) => r.status)).toBe(200);
    expect(await download(onS3.app, files["big.bin"]!)).toBe(md5(big));
    const draft = await onS3.app.handle(
      new Request("http://127.0.0.1:5000/api/records", {
        method: "POST",
        headers: { authorization: `Bearer ${t.users.alice.token}`, "content-type": "application/json" },
        body: JSON.stringify(publishableDraft({ files: { enabled: true } })),
      }),
    );
    const id = ((await draft.json()) as { id: string }).id;
    const auth = { authorization: `Bearer ${t.users.alice.token}` };
    const base = `http://127.0.0.1:5000/api/records/${id}/draft/files`;
    await onS3.app.handle(new Request(base, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify([{ key: "new.txt" }]) }));
    await onS3.app.handle(new Request(`${base}/new.txt/content`, { method: "PUT", headers: { ...auth, ...octet }, body: "after the switch" }));
    const committed = (await (await onS3.app.handle(new Request(`${base}/new.txt/commit`, { method: "POST", headers: auth }))).json()) as { file_id: string };
    expect(await s3.client.file(`m/${committed.file_id}`).text()).toBe("after the switch");
    expect(localObjects(t.dataDir)).not.toContain(committed.file_id);
  });

  test("run again on s3: the spoiled and missing copies are sent again, each is checked, the local copies are removed; files read the same", async () => {
    const run = await cairn(["files", "migrate", "--to", "s3", "--data", t.dataDir], env());
    expect(run.stdout).toBe("3 local objects: 2 copied to s3://cairn-test/m/, 1 already there; 3 read back and their MD5 checked; 3 local copies removed\n");
    expect(run.code).toBe(0);
    expect(localObjects(t.dataDir)).toEqual([]);
    for (const f of Object.values(files)) expect(await download(onS3!.app, f)).toBe(f.md5);
    const logo = await onS3!.app.handle(new Request("http://127.0.0.1:5000/api/communities/migrated/logo"));
    expect([logo.status, await logo.text()]).toEqual([200, "<svg xmlns='http://www.w3.org/2000/svg'/>"]);
    const again = await cairn(["files", "migrate", "--to", "s3", "--data", t.dataDir], env());
    expect([again.code, again.stdout]).toEqual([
      0,
      "0 local objects: 0 copied to s3://cairn-test/m/, 0 already there; 0 read back and their MD5 checked; 0 local copies removed\n",
    ]);
  });

  test("cairn files verify re-hashes the objects in the bucket and names a tampered one with its record", async () => {
    const intact = await cairn(["files", "verify", "--data", t.dataDir], env());
    expect([intact.code, intact.stdout]).toEqual([0, "checked 3 stored files: all intact\n"]);
    const notesObject = (await (await onS3!.app.handle(new Request(`http://127.0.0.1:5000/api/records/${files["notes.txt"]!.id}/files/notes.txt`))).json()) as { file_id: string };
    await s3.client.write(`m/${notesObject.file_id}`, "field notes, changed\n");
    const damaged = await cairn(["files", "verify", "--data", t.dataDir], env());
    expect(damaged.code).toBe(1);
    expect(damaged.stdout).toBe(
      `DAMAGED ${notesObject.file_id}: checksum is md5:${md5("field notes, changed\n")}, expected md5:${md5("field notes\n")} — used by ${files["notes.txt"]!.id}: notes.txt\n` +
        "checked 3 stored files: 1 damaged\n",
    );
  });

  test("migrate without the bucket's settings, or without --to s3, is refused", async () => {
    const noBucket = await cairn(["files", "migrate", "--to", "s3", "--data", t.dataDir], {});
    expect([noBucket.code, noBucket.stderr]).toEqual([
      2,
      "cairn: files migrate --to s3 needs the bucket's settings: S3_BUCKET, S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY\n",
    ]);
    const noTarget = await cairn(["files", "migrate", "--data", t.dataDir], env());
    expect([noTarget.code, noTarget.stderr]).toEqual([2, "cairn: files migrate: say where to: cairn files migrate --to s3\n"]);
  });
});

describe("a server killed in the middle of S3 multipart uploads", () => {
  test("after a restart the multipart transfer resumes, the cut-off upload is aborted, and nothing committed points at a missing object", async () => {
    const data = await prepareDataDir(join(mkdtempSync(join(tmpdir(), "cairn-kill-")), "data"));
    const port = freePort();
    const env = s3.env("k/");
    const first = await serve(["--data", data, "--http", "--port", String(port)], env);
    const token = /^token=(.+)$/m.exec(readFileSync(join(data, "admin-credentials.txt"), "utf8"))![1]!;
    const api = (method: string, path: string, body?: string | Uint8Array, json = false) =>
      fetch(`http://127.0.0.1:${port}/api${path}`, {
        method,
        body,
        headers: { authorization: `Bearer ${token}`, "content-type": json ? "application/json" : "application/octet-stream" },
      });
    const partSize = 5 * MiB;
    const big = pseudoRandomBytes(2 * partSize + 2 * MiB, 31);
    const whole = pseudoRandomBytes(12 * MiB, 32);
    const part = (n: number) => big.subarray((n - 1) * partSize, Math.min(n * partSize, big.length));
    let id = "";
    const files = () => `/records/${id}/draft/files`;
    try {
      id = ((await (await api("POST", "/records", JSON.stringify(publishableDraft({ files: { enabled: true } })), true)).json()) as { id: string }).id;
      const layout = [
        { key: "big.nc", size: big.length, checksum: `md5:${md5(big)}`, transfer: { type: "M", parts: 3, part_size: partSize } },
        { key: "whole.bin", size: whole.length },
      ];
      expect((await api("POST", files(), JSON.stringify(layout), true)).status).toBe(201);
      expect((await api("PUT", `${files()}/big.nc/content/1`, part(1))).status).toBe(200);
      // Part 2 and the whole file (which Bun's client sends as a multipart upload of its own) reach S3 and are held there.
      const held = s3.holdParts();
      const cut = [api("PUT", `${files()}/big.nc/content/2`, part(2)).catch((e) => e), api("PUT", `${files()}/whole.bin/content`, whole).catch((e) => e)];
      await held.arrived(2);
      expect(s3.pendingUploads()).toHaveLength(2);
      first.proc.kill("SIGKILL");
      await first.proc.exited;
      held.release();
      await Promise.all(cut);
    } catch (error) {
      first.proc.kill("SIGKILL");
      throw error;
    }

    const second = await serve(["--data", data, "--http", "--port", String(port)], env);
    try {
      expect(second.output).toContain("Cairn serving");
      // The start-up sweep runs in the background: the whole file's upload, which no row names, goes.
      for (let i = 0; i < 200 && s3.pendingUploads().length > 1; i++) await Bun.sleep(25);
      const recorded = await readRows<{ object_id: string; upload_id: string }>(data, "SELECT object_id, upload_id FROM file_uploads");
      expect(s3.pendingUploads()).toEqual([{ key: `k/${recorded[0]!.object_id}`, uploadId: recorded[0]!.upload_id }]);
      expect(readdirSync(join(data, "files", "tmp"))).toEqual([]);
      const bigEntry = (await (await api("GET", `${files()}/big.nc`)).json()) as { status: string; transfer: { uploaded_parts: number[] } };
      expect([bigEntry.status, bigEntry.transfer.uploaded_parts]).toEqual(["pending", [1]]);
      const wholeEntry = (await (await api("GET", `${files()}/whole.bin`)).json()) as { status: string; file_id: string | null };
      expect([wholeEntry.status, wholeEntry.file_id]).toEqual(["pending", null]);
      expect((await api("POST", `/records/${id}/draft/actions/publish`)).status).toBe(400);

      // The transfer goes on where it stopped.
      for (const n of [3, 2]) expect((await api("PUT", `${files()}/big.nc/content/${n}`, part(n))).status).toBe(200);
      const committed = (await (await api("POST", `${files()}/big.nc/commit`)).json()) as { status: string; checksum: string; file_id: string };
      expect([committed.status, committed.checksum, `k/${committed.file_id}`]).toEqual(["completed", `md5:${md5(big)}`, `k/${recorded[0]!.object_id}`]);
      expect((await api("PUT", `${files()}/whole.bin/content`, whole)).status).toBe(200);
      expect((await (await api("POST", `${files()}/whole.bin/commit`)).json()) as object).toMatchObject({ status: "completed", checksum: `md5:${md5(whole)}` });
      expect((await api("POST", `/records/${id}/draft/actions/publish`)).status).toBe(202);
      for (const [key, bytes] of [
        ["big.nc", big],
        ["whole.bin", whole],
      ] as const) {
        expect(md5(new Uint8Array(await (await api("GET", `/records/${id}/files/${key}/content`)).arrayBuffer()))).toBe(md5(bytes));
      }
      expect(s3.pendingUploads()).toEqual([]);
      const objects = await readRows<{ id: string; size: number }>(data, "SELECT id, size FROM file_objects");
      const inBucket = await s3.objects("k/");
      expect(objects.map((o) => [o.id, inBucket.get(`k/${o.id}`)])).toEqual(objects.map((o) => [o.id, o.size]));
    } finally {
      second.proc.kill("SIGTERM");
      await second.proc.exited;
      rmSync(join(data, ".."), { recursive: true, force: true });
    }
  });
});
