// The write side of `bun run bench`: create + publish through Cairn beside raw SQLite inserts of
// the same JSON, deposits with a 1 MiB file, and one large file up and down beside its limits
// (a bare streaming upload server with MD5 + fsync, Bun.write + fsync, MD5 alone, a disk read).
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { recordIdFromNumber } from "../src/records/ids";
import type { Launched } from "./executable";
import { bareUploadMs, bunWriteMs, diskReadMs, downloadMs, makeSource, MB, md5AloneMs, memory, mibPerSecond, startBareUploadServer, uploadMs, withPeakRss } from "./file-transfers";
import { percentile } from "./lib";

export interface RateResult {
  clients: number;
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/** A client of the REST API with the administrator's token (fetch keeps connections alive). */
export function apiClient(server: Launched) {
  const auth = { Authorization: `Bearer ${server.token()}` };
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${server.base}/api${path}`, {
      method,
      headers: { ...auth, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<any>;
  };
  return { auth, call, base: server.base };
}
type Api = ReturnType<typeof apiClient>;

/** A metadata-only record as a deposit script would send it. */
export const recordBody = (n: number, files: boolean) => ({
  access: { record: "public", files: "public" },
  files: { enabled: files },
  metadata: {
    resource_type: { id: "dataset" },
    title: `Sea surface temperature, North Atlantic, run ${n}`,
    publication_date: "2026-11-01",
    creators: [
      { person_or_org: { type: "personal", given_name: "Ada", family_name: "Lovelace" }, affiliations: [{ name: "University of Somewhere" }] },
      { person_or_org: { type: "personal", given_name: "Alan", family_name: "Turing" } },
    ],
    description: "<p>Daily sea surface temperature from moored buoys, quality-controlled and gridded.</p>",
    publisher: "Cairn",
  },
});

/** `clients` loops of `once()` for `seconds` (after 3 warm-up rounds each); rate and latency. */
async function rate(clients: number, seconds: number, once: (n: number) => Promise<unknown>): Promise<RateResult> {
  let n = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < 3; i++) await once(n++);
    }),
  );
  const times: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        await once(n++);
        times.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { clients, count: times.length, perSecond: Math.round(times.length / elapsed), p50: +percentile(times, 50).toFixed(1), p99: +percentile(times, 99).toFixed(1) };
}

/** Create a draft, then publish it: one metadata-only record. */
export function createAndPublish(api: Api, clients: number, seconds: number) {
  return rate(clients, seconds, async (n) => {
    const draft = await api.call("POST", "/records", recordBody(n, false));
    await api.call("POST", `/records/${draft.id}/draft/actions/publish`);
  });
}

/** The full upload sequence: draft, start upload, 1 MiB content, commit, publish. */
export function depositWithFile(api: Api, clients: number, seconds: number) {
  const content = new Uint8Array(1024 * 1024);
  crypto.getRandomValues(content.subarray(0, 65536));
  for (let i = 65536; i < content.length; i += 65536) content.copyWithin(i, 0, 65536);
  return rate(clients, seconds, async (n) => {
    const draft = await api.call("POST", "/records", recordBody(n, true));
    const files = `/records/${draft.id}/draft/files`;
    await api.call("POST", files, [{ key: "data.bin" }]);
    const r = await fetch(`${api.base}/api${files}/data.bin/content`, { method: "PUT", headers: { ...api.auth, "Content-Type": "application/octet-stream" }, body: content });
    if (!r.ok) throw new Error(`content: ${r.status} ${await r.text()}`);
    await r.arrayBuffer();
    await api.call("POST", `${files}/data.bin/commit`);
    await api.call("POST", `/records/${draft.id}/draft/actions/publish`);
  });
}

/**
 * The write limit: one transaction per record inserting its parent and record rows with `document`
 * (JSON Cairn stored), into a migrated database with Cairn's pragmas, sequentially for `seconds`.
 */
export function rawInserts(data: string, document: string, seconds: number) {
  const db = new Database(join(data, "cairn.db"));
  for (const pragma of ["journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON", "busy_timeout = 5000", "temp_store = MEMORY"]) db.exec(`PRAGMA ${pragma}`);
  const insertParent = db.query("INSERT INTO record_parents (id, owner_id, latest_id, pids, created, updated) VALUES (?, 1, ?, '{}', ?, ?)");
  const insertRecord = db.query(
    "INSERT INTO records (id, parent_id, owner_id, is_published, is_latest, version_index, access_record, document, created, updated) VALUES (?, ?, 1, 1, 1, 1, 'public', ?, ?, ?)",
  );
  const insert = db.transaction((i: number) => {
    const [id, parent, now] = [recordIdFromNumber(2 * i + 1), recordIdFromNumber(2 * i + 2), Date.now()];
    insertParent.run(parent, id, now, now);
    insertRecord.run(id, parent, document, now, now);
  });
  let i = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  while (performance.now() < deadline) insert(i++);
  const perSecond = Math.round(i / ((performance.now() - started) / 1000));
  db.close();
  return { count: i, perSecond };
}

/** The stored JSON of the most recently published record of a data directory. */
export function lastStoredDocument(data: string): string {
  const db = new Database(join(data, "cairn.db"), { readonly: true });
  const row = db.query<{ document: string }, []>("SELECT document FROM records ORDER BY rowid DESC LIMIT 1").get();
  db.close();
  if (!row) throw new Error("no published record to copy");
  return row.document;
}

/**
 * One file of `size` bytes up (one PUT stream) and down, beside the bare upload server (its own
 * process, writing beside Cairn's data), Bun.write, MD5 alone and a disk read, `rounds` times
 * interleaved (a new file each round); the best round of each (the disk is shared and noisy), with
 * the server's peak RSS over all rounds. Cairn's checksum must be the bare server's MD5.
 */
export async function fileTransfers(api: Api, pid: number, dir: string, size: number, rounds: number) {
  const source = join(dir, "source.bin");
  makeSource(source, size);
  const draft = await api.call("POST", "/records", recordBody(0, true));
  const files = `/records/${draft.id}/draft/files`;
  const before = MB(memory(pid).rss);
  const ms = { bunWrite: Infinity, bareUpload: Infinity, md5: Infinity, upload: Infinity, diskRead: Infinity, download: Infinity };
  const peak = { upload: 0, download: 0 };
  const bare = await startBareUploadServer(join(dir, "bare-uploads"));
  try {
    for (let r = 0; r < rounds; r++) {
      const key = `big-${r}.bin`;
      ms.bunWrite = Math.min(ms.bunWrite, await bunWriteMs(source, join(dir, "copy.bin")));
      const md5 = await md5AloneMs(source);
      const bareUpload = await bareUploadMs(bare.url, Bun.file(source));
      if (bareUpload.md5 !== md5.md5) throw new Error(`the bare server's MD5 ${bareUpload.md5} is not the file's ${md5.md5}`);
      [ms.md5, ms.bareUpload] = [Math.min(ms.md5, md5.ms), Math.min(ms.bareUpload, bareUpload.ms)];
      await api.call("POST", files, [{ key }]);
      const upload = await withPeakRss(pid, async () => {
        const took = await uploadMs(`${api.base}/api${files}/${key}/content`, api.auth, Bun.file(source));
        const committed = await api.call("POST", `${files}/${key}/commit`);
        if (committed.checksum !== `md5:${md5.md5}`) throw new Error(`Cairn's checksum ${committed.checksum} is not md5:${md5.md5}`);
        return took;
      });
      ms.diskRead = Math.min(ms.diskRead, await diskReadMs(source, size));
      const download = await withPeakRss(pid, () => downloadMs(`${api.base}/api${files}/${key}/content`, api.auth, size));
      [ms.upload, ms.download] = [Math.min(ms.upload, upload.result), Math.min(ms.download, download.result)];
      [peak.upload, peak.download] = [Math.max(peak.upload, upload.peakMiB), Math.max(peak.download, download.peakMiB)];
    }
  } finally {
    await bare.stop();
  }
  const speed = (took: number) => Math.round(mibPerSecond(size, took));
  return {
    sizeMiB: size / 1024 / 1024,
    rounds,
    serverRssBeforeMB: before,
    bunWriteMiBs: speed(ms.bunWrite),
    bareUploadMiBs: speed(ms.bareUpload),
    md5MiBs: speed(ms.md5),
    diskReadMiBs: speed(ms.diskRead),
    upload: { mibPerSecond: speed(ms.upload), peakRssMB: MB(peak.upload) },
    download: { mibPerSecond: speed(ms.download), peakRssMB: MB(peak.download) },
  };
}
