// Downloads the newest ROR data dump from its publisher, as InvenioRDM's `vocabularies update
// --origin ror-http` does: ask the release record (VOCABULARIES_ROR_DUMP_URL) for its files, take
// its one zip, stream it to disk and take the schema v2 JSON out of it. Each step leaves its file
// in the import's folder, so a run cut short continues from the last finished step.
import { createWriteStream, existsSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { extractZipMember, listZip, type ZipMember } from "./importers/zip";

export type DownloadProgress = (done: number, total: number | null, message: string) => Promise<void>;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The zip's URL in the release record's answer: a signposting linkset (InvenioRDM's way: the
 * concept record's `application/linkset+json`, its one `application/zip` item), or a records
 * search (a community's newest record first) whose first hit has a `.zip` file.
 */
export function zipUrlOf(answer: unknown, source: string): string {
  if (isObject(answer) && Array.isArray(answer.linkset)) {
    const items = (isObject(answer.linkset[0]) && Array.isArray(answer.linkset[0].item) ? answer.linkset[0].item : []).filter(
      (i): i is Json => isObject(i) && i.type === "application/zip" && typeof i.href === "string",
    );
    if (items.length !== 1) throw new Error(`the release record at ${source} links ${items.length} zip files where one was expected`);
    return items[0]!.href as string;
  }
  const hits = isObject(answer) && isObject(answer.hits) && Array.isArray(answer.hits.hits) ? answer.hits.hits : null;
  if (hits) {
    if (!isObject(hits[0])) throw new Error(`the search at ${source} found no release record`);
    const files = hits[0].files;
    const entries = Array.isArray(files) ? files : isObject(files) && files.entries ? Object.values(files.entries as Json) : [];
    for (const f of entries) {
      if (!isObject(f) || typeof f.key !== "string" || !/\.zip$/i.test(f.key) || !isObject(f.links)) continue;
      const href = f.links.content ?? f.links.self;
      if (typeof href === "string") return href;
    }
    throw new Error(`the newest release record at ${source} has no zip file`);
  }
  throw new Error(`${source} answered neither a linkset nor a records search`);
}

/** The dump inside the release: InvenioRDM reads the `*_schema_v2.json` member; an archive with one JSON file gives that. */
export function dumpMemberOf(members: ZipMember[]): ZipMember {
  const json = members.filter((m) => /\.json$/i.test(m.name) && !m.name.endsWith("/"));
  const v2 = json.find((m) => /_schema_v2\.json$/i.test(m.name)) ?? (json.length === 1 ? json[0] : undefined);
  if (!v2) throw new Error(`the release's zip holds no *_schema_v2.json file (it has: ${members.map((m) => m.name).join(", ") || "nothing"})`);
  return v2;
}

async function getJson(url: string, signal: AbortSignal): Promise<unknown> {
  const res = await fetch(url, { headers: { Accept: "application/linkset+json, application/json;q=0.9" }, signal });
  if (!res.ok) throw new Error(`${url} answered ${res.status} ${res.statusText}`.trim());
  try {
    return await res.json();
  } catch {
    throw new Error(`${url} did not answer JSON`);
  }
}

async function download(url: string, dest: string, signal: AbortSignal, progress: DownloadProgress): Promise<void> {
  const res = await fetch(url, { signal });
  if (!res.ok || !res.body) throw new Error(`downloading ${url} failed: ${res.status} ${res.statusText}`.trim());
  const length = Number(res.headers.get("content-length"));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  let done = 0;
  const counted = async function* (body: AsyncIterable<Uint8Array>) {
    for await (const chunk of body) {
      done += chunk.length;
      await progress(done, total, "bytes of the ROR release downloaded");
      yield chunk;
    }
  };
  const part = `${dest}.part`;
  await pipeline(Readable.from(counted(res.body as unknown as AsyncIterable<Uint8Array>)), createWriteStream(part), { signal });
  await rename(part, dest);
}

/** The path of the newest release's schema v2 JSON in `dir`, downloading and unzipping what is not there yet. */
export async function fetchRorRelease(source: string, dir: string, signal: AbortSignal, progress: DownloadProgress): Promise<string> {
  const json = join(dir, "ror.json");
  if (existsSync(json)) return json;
  const zip = join(dir, "ror.zip");
  if (!existsSync(zip)) {
    await progress(0, null, "asking for the newest ROR release");
    await download(zipUrlOf(await getJson(source, signal), source), zip, signal, progress);
  }
  let member: ZipMember;
  try {
    member = dumpMemberOf(await listZip(zip));
  } catch (err) {
    // A damaged download is fetched again by the next attempt, not read again.
    await rm(zip, { force: true });
    throw new Error(`ROR release: ${(err as Error).message}`);
  }
  await extractZipMember(zip, member, json, signal);
  await rm(zip, { force: true });
  return json;
}
