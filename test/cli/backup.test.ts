// `cairn backup`: a running server's data directory backed up beside it, the manifest's contents,
// --verify finding damage, incremental runs and pruning, and the .tar.zst/.tar.gz archives.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../../src/db/sqlite/migrations/manifest";
import { VERSION } from "../../src/version";
import { createTestApp, type TestApp } from "../helpers/app";
import { listing, readManifest, runCairn, seedRecords, snapshotsIn } from "../helpers/backup";
import { cairn, freePort, serve } from "../helpers/cli";
import { databaseEnv, dropDataDirDatabases, prepareDataDir, testEngine } from "../helpers/data-dir";
import { createDraft, publishableDraft } from "../helpers/records";

let root = "";
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "cairn-backup-"));
});
afterAll(async () => {
  await dropDataDirDatabases();
  rmSync(root, { recursive: true, force: true });
});

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const md5 = (path: string) => createHash("md5").update(readFileSync(path)).digest("hex");
const objectPath = (base: string, id: string) => join(base, id.slice(0, 2), id);
/** `cairn restore SRC --data target` on the suite's engine (on PostgreSQL into a new empty database). */
const restore = async (source: string, target: string) => cairn(["restore", source, "--data", target], await databaseEnv(target, { empty: true }));
/** On PostgreSQL the data directory's cairn.toml (naming the database) is backed up and restored with the rest. */
const configFiles = () => (testEngine() === "postgres" ? ["cairn.toml"] : []);

/** A tiny HTTPS client of a served data directory, as the administrator. */
function client(port: number, token: string) {
  return async (method: string, path: string, body?: unknown, raw?: string) => {
    const res = await fetch(`https://127.0.0.1:${port}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": raw === undefined ? "application/json" : "application/octet-stream" },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      tls: { rejectUnauthorized: false },
    } as RequestInit);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
}

describe("a running server", () => {
  test("is backed up beside it while it writes; the manifest lists what the snapshot holds, with checksums", async () => {
    const data = await prepareDataDir(join(root, "served"));
    const port = freePort();
    const { proc, output } = await serve(["--data", data, "--port", String(port)]);
    expect(output).toContain(`Cairn serving https://127.0.0.1:${port}`);
    const dest = join(root, "served-backup");
    try {
      const api = client(port, /^token=(.+)$/m.exec(readFileSync(join(data, "admin-credentials.txt"), "utf8"))![1]!);
      const publish = async (i: number) => {
        const draft = await api("POST", "/records", {
          access: { record: "public", files: "public" },
          files: { enabled: true },
          metadata: {
            resource_type: { id: "dataset" },
            title: `Served ${i}`,
            publication_date: "2026-01-01",
            creators: [{ person_or_org: { type: "personal", family_name: "Ng" } }],
          },
        });
        await api("POST", `/records/${draft.id}/draft/files`, [{ key: "d.csv" }]);
        await api("PUT", `/records/${draft.id}/draft/files/d.csv/content`, undefined, `x,y\n${i},${i}\n`);
        const entry = await api("POST", `/records/${draft.id}/draft/files/d.csv/commit`);
        await api("POST", `/records/${draft.id}/draft/actions/publish`);
        return entry.checksum as string;
      };
      const checksums = [await publish(0), await publish(1), await publish(2)];
      // The backup runs while the server goes on publishing.
      const running = runCairn(["backup", dest, "--data", data]);
      let more = 3;
      const writing = (async () => {
        while (more < 8) await publish(more++);
      })();
      const [res] = await Promise.all([running, writing]);
      expect(res.stderr).toBe("");
      expect(res.code).toBe(0);
      const [name] = snapshotsIn(dest);
      expect(res.stdout).toContain(`backup ${name} written to ${join(dest, name!)}`);
      const snapshot = join(dest, name!);
      const manifest = readManifest(snapshot);
      const db = new Database(join(snapshot, "cairn.db"), { readonly: true });
      const count = (table: string) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      const stored = db.query("SELECT id, size, checksum FROM file_objects ORDER BY id").all() as { id: string; size: number; checksum: string }[];
      expect(manifest).toMatchObject({
        format: "cairn-backup",
        formatVersion: 1,
        engine: testEngine(),
        name,
        cairnVersion: VERSION,
        migration: { level: migrations.length, last: migrations.at(-1)!.id, ids: migrations.map((m) => m.id) },
        storage: { files: "local" },
        counts: { records: count("records"), drafts: count("drafts"), users: 1, communities: 0, fileEntries: count("file_entries"), objects: stored.length },
      });
      // Taken while records were being published: at least the first three, at most all eight.
      expect(manifest.counts.records).toBeGreaterThanOrEqual(3);
      expect(manifest.counts.records).toBeLessThanOrEqual(8);
      expect(manifest.counts.objectBytes).toBe(stored.reduce((s, o) => s + o.size, 0));
      db.close();
      // The objects are exactly those the snapshot references, each with the database's MD5...
      expect(manifest.objects).toEqual(stored.map((o) => [o.id, o.size, o.checksum.slice(4)]));
      for (const c of checksums) expect(manifest.objects.map((o: unknown[]) => `md5:${o[2]}`)).toContain(c);
      for (const [id, size, sum] of manifest.objects) {
        const copy = objectPath(join(dest, "objects"), id);
        expect([statSync(copy).size, md5(copy)]).toEqual([size, sum]);
        // ...hard-linked: the backup is on the data directory's file system.
        expect(statSync(copy).ino).toBe(statSync(objectPath(join(data, "files", "objects"), id)).ino);
      }
      // The certificate a restored server needs to be the same server, and the database, with SHA-256s.
      expect(manifest.files.map((f: { path: string }) => f.path)).toEqual(["cairn.db", "tls/cert.pem", "tls/key.pem", "tls/names.json", ...configFiles()]);
      for (const f of manifest.files) expect([f.size, f.sha256]).toEqual([statSync(join(snapshot, f.path)).size, sha256(join(snapshot, f.path))]);
      expect(readFileSync(join(snapshot, "tls", "key.pem"), "utf8")).toBe(readFileSync(join(data, "tls", "key.pem"), "utf8"));
      expect(readdirSync(snapshot).sort()).toEqual(["cairn.db", ...configFiles(), "manifest.json", "tls"]);
      // The server carried on throughout.
      expect((await api("GET", "/records?size=20")).hits.total).toBe(8);
    } finally {
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    }
  });
});

describe("backups of a data directory", () => {
  let app: TestApp;
  const dest = () => join(root, "folder");
  beforeAll(async () => {
    app = await createTestApp();
    await seedRecords(app, 4);
  });
  afterAll(() => app.close());
  const backup = (...args: string[]) => cairn(["backup", ...args, "--data", app.dataDir], {}, { clock: app.clock });

  test("a second run copies only the new objects; each snapshot is whole", async () => {
    const first = backup(dest(), "--copy");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("4 stored files (0.0 MiB): 4 copied, 0 hard-linked, 0 already in the backup");
    await seedRecords(app, 2, { title: "Later survey" });
    app.clock.advance(60_000);
    const second = backup(dest(), "--copy");
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("6 stored files (0.0 MiB): 2 copied, 0 hard-linked, 4 already in the backup");
    // Named by the time of the run (the test's clock, plus the second the child took to start).
    const names = snapshotsIn(dest());
    expect(names).toEqual([expect.stringMatching(/^20261122T12000\dZ$/), expect.stringMatching(/^20261122T12010\dZ$/)]);
    expect(readManifest(join(dest(), names[0]!)).counts).toMatchObject({ records: 4, objects: 4 });
    expect(readManifest(join(dest(), names[1]!)).counts).toMatchObject({ records: 6, objects: 6 });
    const pool = readdirSync(join(dest(), "objects")).flatMap((d) => readdirSync(join(dest(), "objects", d)));
    expect(pool.length).toBe(6);
    // --copy: real copies, not links to the live store.
    const [id] = readManifest(join(dest(), names[1]!)).objects[0];
    expect(statSync(objectPath(join(dest(), "objects"), id)).ino).not.toBe(statSync(objectPath(join(app.dataDir, "files", "objects"), id)).ino);
    const verified = cairn(["backup", "--verify", dest()]);
    expect(verified.stdout).toContain("checked 2 snapshot(s), 6 stored files");
    expect(verified.stdout).toContain("all intact");
    expect(verified.code).toBe(0);
  });

  test("--verify names a flipped byte in an object and a changed database, and exits 1", () => {
    const [older, newer] = snapshotsIn(dest()).map((n) => join(dest(), n));
    const snapshot = newer!;
    // An object of the newer snapshot only: exactly one snapshot is damaged.
    const shared = new Set(readManifest(older!).objects.map((o: unknown[]) => o[0]));
    const [id] = readManifest(snapshot).objects.find((o: unknown[]) => !shared.has(o[0]));
    const object = objectPath(join(dest(), "objects"), id);
    const original = readFileSync(object);
    const damaged = Buffer.from(original);
    damaged[10] = damaged[10]! ^ 0x01;
    // A new file renamed over the old name: were the object hard-linked, writing into it would damage the live copy too.
    writeFileSync(`${object}.new`, damaged);
    renameSync(`${object}.new`, object);
    let res = cairn(["backup", "--verify", dest()]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(
      `DAMAGED ${snapshotsIn(dest())[1]}: object ${id}: changed (MD5 ${md5(object)}, the manifest says ${createHash("md5").update(original).digest("hex")})`,
    );
    expect(res.stdout).toContain("checked 2 snapshot(s), 6 stored files, ");
    expect(res.stdout).toContain(": 1 damaged");
    writeFileSync(object, original);
    const db = join(snapshot, "cairn.db");
    const bytes = readFileSync(db);
    copyFileSync(db, `${db}.good`);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
    writeFileSync(db, bytes);
    res = cairn(["backup", "--verify", snapshot]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(`DAMAGED ${snapshot}: cairn.db: changed (SHA-256 ${sha256(db)}, the manifest says ${readManifest(snapshot).files[0].sha256})`);
    renameSync(`${db}.good`, db);
    expect(cairn(["backup", "--verify", dest()]).code).toBe(0);
  });

  test("--keep N removes older snapshots and the objects only they used", async () => {
    const draft = await createDraft(app, publishableDraft({ files: { enabled: true } }), { files: [["scratch.bin", "scratch bytes"]] });
    app.clock.advance(60_000);
    expect(backup(dest()).code).toBe(0);
    const scratch = readManifest(join(dest(), snapshotsIn(dest()).at(-1)!)).objects.find((o: unknown[]) => o[1] === 13)[0];
    expect(existsSync(objectPath(join(dest(), "objects"), scratch))).toBe(true);
    expect((await app.call("DELETE", `/api/records/${draft.id}/draft`, { as: "alice" })).status).toBe(204);
    app.clock.advance(60_000);
    const before = snapshotsIn(dest());
    const res = backup(dest(), "--keep", "1");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`removed older snapshots ${before.join(", ")} and 1 files only they used`);
    expect(snapshotsIn(dest())).toEqual([expect.stringMatching(/^20261122T12030\dZ$/)]);
    expect(existsSync(objectPath(join(dest(), "objects"), scratch))).toBe(false);
    expect(cairn(["backup", "--verify", dest()]).stdout).toContain("checked 1 snapshot(s), 6 stored files");
  });

  test.each([
    ["zstd", "tar.zst"],
    ["gzip", "tar.gz"],
  ])("an archive (%s) verifies, restores whole, and a flipped byte fails --verify", async (_kind, extension) => {
    const archive = join(root, `backup.${extension}`);
    const res = backup(archive);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`backup backup.${extension} written to ${archive}`);
    expect(cairn(["backup", "--verify", archive]).stdout).toContain("checked 1 snapshot(s), 6 stored files");
    const restored = join(root, `restored-${extension}`);
    const restoring = await restore(archive, restored);
    expect(restoring.stderr).toBe("");
    expect(restoring.stdout).toContain(`restored backup.${extension} into ${restored}`);
    // Every object the database references, byte for byte as in the live store.
    const live = listing(join(app.dataDir, "files", "objects"));
    const referenced = (await app.services.deps.db.statements.all<{ id: string }>("SELECT id FROM file_objects")).map(({ id }) => `${id.slice(0, 2)}/${id}`);
    expect(referenced.length).toBe(6);
    expect(listing(join(restored, "files", "objects"))).toEqual(Object.fromEntries(referenced.map((p) => [p, live[p]!])));
    // Never overwritten.
    const again = backup(archive);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`cairn: ${archive} exists; a backup archive is never overwritten: choose a new name.\n`);
    const bytes = readFileSync(archive);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    writeFileSync(archive, bytes);
    const damaged = cairn(["backup", "--verify", archive]);
    expect(damaged.code).toBe(1);
    expect(damaged.stdout).toMatch(/DAMAGED .*backup\.tar\.(zst|gz): /);
  });

  test("with FILES_STORAGE = s3 the files are the bucket's to back up: the backup says so and holds none", async () => {
    const dest = join(root, "s3-backup");
    const res = cairn(["backup", dest, "--data", app.dataDir], { CAIRN_FILES_STORAGE: "s3", CAIRN_S3_BUCKET: "cairn-files" }, { clock: app.clock });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("  6 stored files (0.0 MiB) are in s3 (FILES_STORAGE), not in this backup: back the bucket up with its own tools\n");
    const manifest = readManifest(join(dest, snapshotsIn(dest)[0]!));
    expect(manifest).toMatchObject({ storage: { files: "s3" }, objects: [], counts: { records: 6, objects: 6 } });
    expect(readdirSync(join(dest, "objects"))).toEqual([]);
    const target = join(root, "s3-restored");
    const restored = await restore(dest, target);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain("the files are in s3, not in the backup: start the server with the same FILES_STORAGE and S3 settings");
    if (testEngine() === "sqlite") expect(readdirSync(target)).toEqual(["cairn.db"]);
    else {
      // PostgreSQL's database is the server's: the backed-up cairn.toml, and the folders of the
      // local file store the restore's index rebuild opened (cli/db.ts rebuildIndexes), with no file in them.
      expect(readdirSync(target).sort()).toEqual(["cairn.toml", "files"]);
      expect(listing(join(target, "files"))).toEqual({});
    }
  });

  test("a stored file whose bytes changed, or that is gone, fails the backup loudly and nothing looks written", async () => {
    const store = join(app.dataDir, "files", "objects");
    const { id, size, checksum } = (await app.services.deps.db.statements.get<{
      id: string;
      size: number;
      checksum: string;
    }>("SELECT id, size, checksum FROM file_objects ORDER BY id LIMIT 1"))!;
    const live = objectPath(store, id);
    const good = readFileSync(live);
    const bad = Buffer.from(good);
    bad[5] = bad[5]! ^ 0x04;
    // A new file renamed over the live one: earlier backups hard-linked the old one and keep it.
    writeFileSync(`${live}.bad`, bad);
    renameSync(`${live}.bad`, live);
    const dest = join(root, "damaged-store");
    try {
      const res = backup(dest);
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(
        `cairn: the stored object ${live} is damaged: ${size} bytes with MD5 ${md5(live)}, the database recorded ${size} bytes with MD5 ${checksum.slice(4)} (see cairn files verify); no backup was written\n`,
      );
      expect(snapshotsIn(dest)).toEqual([]);
      expect(readdirSync(dest).filter((n) => n.startsWith(".partial-"))).toEqual([]);
      // Gone: the snapshot is taken again (an object deleted after it was taken is no longer
      // referenced by the next); one still referenced after three snapshots fails the backup.
      renameSync(live, `${live}.away`);
      const gone = backup(dest);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toBe(`cairn: 1 object(s) the database references are missing from ${store} (${id}): run cairn files verify; no backup was written\n`);
      expect(snapshotsIn(dest)).toEqual([]);
    } finally {
      writeFileSync(live, good);
      rmSync(`${live}.away`, { force: true });
    }
    expect(backup(dest).code).toBe(0);
  });

  test("a destination inside the data directory, and a missing database, are refused", () => {
    const inside = backup(join(app.dataDir, "backups"));
    expect(inside.code).toBe(2);
    expect(inside.stderr).toBe(`cairn: The backup destination ${join(app.dataDir, "backups")} is inside the data directory ${app.dataDir}: choose a place outside it.\n`);
    // No database at all (no cairn.toml naming one, no cairn.db): the same folder on both engines' runs.
    const empty = join(root, "no-data");
    const none = cairn(["backup", join(root, "none"), "--data", empty]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`cairn: ${empty} holds no Cairn database (cairn.db): nothing to back up.\n`);
    expect(cairn(["backup", "--data", empty]).stderr).toBe("cairn: backup needs a DEST folder or .tar.zst/.tar.gz file (see cairn backup --help)\n");
  });
});
