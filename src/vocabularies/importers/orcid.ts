// Reads ORCID public data summary records (XML file, directory tree or .tar.gz dump) into name entries.
import { opendir, stat } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import { XMLParser } from "fast-xml-parser";
import type { ImportItem, NameEntry } from "../model";
import { type Progress, fileContent, fileSize, progressCounter, tarMembers } from "./source";

/**
 * InvenioRDM (DEFAULT_NAMES_EXCLUDE_REGEX) refuses names holding punctuation, symbols, digits or
 * emoji, bar , . ( ) - and the straight apostrophe: that keeps spam and test accounts out.
 */
const NAME_ALLOWED_PUNCTUATION = /[,.()\-']/g;
const NAME_REFUSED = /[\p{P}\p{S}\p{Nd}\p{No}\p{Emoji}]/u;

const xml = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  // Strings stay strings: an ORCID iD or a numeric-looking name must not turn into a number.
  parseTagValue: false,
  trimValues: true,
  isArray: (tag) => tag === "affiliation-group" || tag === "employment-summary",
});

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** A disambiguated organisation becomes a linkable affiliation id only for ROR, as in InvenioRDM's default mapper. */
function affiliationId(org: Json): string | undefined {
  const dis = obj(org["disambiguated-organization"]);
  const source = text(dis["disambiguation-source"]);
  const value = text(dis["disambiguated-organization-identifier"]);
  if (source?.toUpperCase() !== "ROR" || !value) return undefined;
  return value.split("/").pop() || undefined;
}

/** Current employments (no end date), deduplicated by affiliation id, else by name. */
function currentAffiliations(record: Json): NameEntry["affiliations"] {
  const groups = list(obj(obj(record["activities-summary"]).employments)["affiliation-group"]);
  const result: NameEntry["affiliations"] = [];
  for (const group of groups) {
    // Several summaries in a group are one affiliation asserted by several sources: the first is ORCID's preferred one.
    const summary = obj(list(obj(group)["employment-summary"])[0]);
    if (summary["end-date"]) continue;
    const org = obj(summary.organization);
    const name = text(org.name);
    if (!name) continue;
    const id = affiliationId(org);
    if (id ? result.some((a) => a.id === id) : result.some((a) => a.name === name && !a.id)) continue;
    result.push(id ? { id, name } : { name });
  }
  return result;
}

/** Maps one parsed `<record:record>`; `where` names it in skip reasons until its iD is known. */
export function mapOrcidRecord(record: Json, where: string): ImportItem<NameEntry> {
  const ident = obj(record["orcid-identifier"]);
  const id = text(ident.path) ?? text(ident.uri)?.split("/").pop();
  if (!id) return { skip: `${where}: no orcid-identifier` };
  const name = obj(obj(record.person).name);
  const given = text(name["given-names"]);
  const family = text(name["family-name"]);
  if (!given && !family) return { skip: `ORCID ${id}: no public given or family name` };
  if (NAME_REFUSED.test(`${given ?? ""}${family ?? ""}`.replace(NAME_ALLOWED_PUNCTUATION, ""))) {
    return { skip: `ORCID ${id}: name contains punctuation, symbols, digits or emoji` };
  }
  return {
    entry: {
      id,
      ...(given ? { given_name: given } : {}),
      ...(family ? { family_name: family } : {}),
      name: [family, given].filter(Boolean).join(", "),
      identifiers: [{ scheme: "orcid", identifier: id }],
      affiliations: currentAffiliations(record),
    },
  };
}

const RECORD_OPEN = /<(?:[A-Za-z_][\w.-]*:)?record[\s>]/;
const RECORD_CLOSE = /<\/(?:[A-Za-z_][\w.-]*:)?record\s*>/;
// Longest tag fragment that may straddle two chunks; kept back so a split tag is still found.
const TAG_TAIL = 64;

/** Cuts `<record>` elements out of a text stream, so a file of many concatenated records never sits whole in memory. */
async function* recordElements(source: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let buf = "";
  let inside = false;
  let from = 0;
  const step = function* (): Generator<string> {
    for (;;) {
      if (!inside) {
        const open = RECORD_OPEN.exec(buf);
        if (!open) {
          buf = buf.slice(-TAG_TAIL);
          return;
        }
        buf = buf.slice(open.index);
        inside = true;
        from = 0;
      }
      const close = RECORD_CLOSE.exec(buf.slice(from));
      if (!close) {
        from = Math.max(0, buf.length - TAG_TAIL);
        return;
      }
      const end = from + close.index + close[0].length;
      yield buf.slice(0, end);
      buf = buf.slice(end);
      inside = false;
    }
  };
  for await (const chunk of source) {
    buf += decoder.decode(chunk, { stream: true });
    yield* step();
  }
  buf += decoder.decode();
  yield* step();
}

/** The records of one XML document (one record, or several concatenated), or why there were none. */
async function* readXml(source: AsyncIterable<Uint8Array>, where: string): AsyncGenerator<ImportItem<NameEntry>> {
  let found = 0;
  for await (const element of recordElements(source)) {
    found++;
    const label = found > 1 ? `${where} (record ${found})` : where;
    let parsed: Json;
    try {
      parsed = obj(xml.parse(element));
    } catch (err) {
      yield { skip: `${label}: invalid XML: ${(err as Error).message}` };
      continue;
    }
    yield mapOrcidRecord(obj(parsed.record), label);
  }
  if (found === 0) yield { skip: `${where}: no ORCID <record> element` };
}

/** .xml files under a directory, depth first, names sorted so runs are repeatable; one directory listed at a time. */
async function* xmlFiles(dir: string): AsyncGenerator<string> {
  const entries: { name: string; isDir: boolean }[] = [];
  for await (const d of await opendir(dir)) {
    if (d.isDirectory()) entries.push({ name: d.name, isDir: true });
    else if (d.isFile() && d.name.toLowerCase().endsWith(".xml")) entries.push({ name: d.name, isDir: false });
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDir) yield* xmlFiles(path);
    else yield path;
  }
}

/**
 * Streams ORCID summary records from a single XML file (one or several records), a directory of
 * them (walked recursively) or the .tar.gz dump. For a directory, progress counts the .xml files'
 * bytes, which takes one extra walk to total up first.
 */
export async function* readOrcid(path: string, onProgress?: Progress): AsyncGenerator<ImportItem<NameEntry>> {
  if ((await stat(path)).isDirectory()) {
    let total = 0;
    for await (const file of xmlFiles(path)) total += await fileSize(file);
    const count = progressCounter(total, onProgress);
    for await (const file of xmlFiles(path)) yield* readXml(fileContent(file, count), relative(path, file));
    return;
  }
  const count = progressCounter(await fileSize(path), onProgress);
  if (/\.(tar|tar\.gz|tgz)$/i.test(path)) {
    for await (const member of tarMembers(path, count)) {
      if (!member.name.toLowerCase().endsWith(".xml")) continue;
      yield* readXml(member.content, member.name);
    }
    return;
  }
  yield* readXml(fileContent(path, count), basename(path));
}
