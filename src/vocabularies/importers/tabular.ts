// Reads names and subjects from CSV, JSON Lines or YAML files (CSV and JSONL optionally gzipped).
import { Readable, pipeline } from "node:stream";
import { parse as csvParser } from "csv-parse";
import { parse as parseYaml } from "yaml";
import type { EntryByType, Identifier, ImportItem, NameEntry, SubjectEntry } from "../model";
import { type Progress, fileContent, fileSize, lines, progressCounter } from "./source";

export type TabularType = "names" | "subjects";
type Row = Record<string, unknown>;
type Format = "csv" | "jsonl" | "yaml";

const isObject = (v: unknown): v is Row => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => {
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  return typeof v === "string" && v.trim() ? v.trim() : undefined;
};
/** A CSV cell holds several values separated by ";". */
const cells = (v: string) =>
  v
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);

/** The format named by the file's extension, a trailing .gz aside (gzip itself is detected by content). */
export function tabularFormat(path: string): Format {
  const name = path.toLowerCase().replace(/\.gz$/, "");
  if (name.endsWith(".csv")) return "csv";
  if (name.endsWith(".jsonl") || name.endsWith(".ndjson")) return "jsonl";
  if (name.endsWith(".yaml") || name.endsWith(".yml")) return "yaml";
  throw new Error(`${path}: unsupported file type; expected .csv, .jsonl, .ndjson, .yaml or .yml (CSV and JSON Lines may end in .gz)`);
}

function identifiersOf(v: unknown): Identifier[] {
  // CSV style, "scheme:identifier;scheme:identifier": split on the first colon only, as values may be URLs.
  const items: unknown[] = typeof v === "string" ? cells(v) : Array.isArray(v) ? v : [];
  const out: Identifier[] = [];
  for (const item of items) {
    if (typeof item === "string") {
      const colon = item.indexOf(":");
      const scheme = colon > 0 ? item.slice(0, colon).trim() : "";
      const identifier = colon > 0 ? item.slice(colon + 1).trim() : "";
      if (scheme && identifier) out.push({ scheme: scheme.toLowerCase(), identifier });
    } else if (isObject(item)) {
      const scheme = text(item.scheme);
      const identifier = text(item.identifier);
      if (scheme && identifier) out.push({ scheme: scheme.toLowerCase(), identifier });
    }
  }
  return out;
}

function affiliationsOf(v: unknown): NameEntry["affiliations"] {
  const items: unknown[] = typeof v === "string" ? cells(v) : Array.isArray(v) ? v : [];
  const out: NameEntry["affiliations"] = [];
  for (const item of items) {
    if (typeof item === "string" && item.trim()) out.push({ name: item.trim() });
    else if (isObject(item)) {
      const id = text(item.id);
      const name = text(item.name);
      // An id alone is kept with an empty name, as the API's validation does: the name comes from the affiliation.
      if (id || name) out.push({ ...(id ? { id } : {}), name: name ?? "" });
    }
  }
  return out;
}

export function mapNameRow(row: Row, where: string): ImportItem<NameEntry> {
  const given = text(row.given_name);
  const family = text(row.family_name);
  const name = text(row.name) ?? [family, given].filter(Boolean).join(", ");
  if (!name) return { skip: `${where}: no given_name, family_name or name` };
  const identifiers = identifiersOf(row.identifiers);
  const id = text(row.id) ?? identifiers.find((i) => i.scheme === "orcid")?.identifier;
  if (!id) return { skip: `${where}: no id and no orcid identifier` };
  return {
    entry: {
      id,
      ...(given ? { given_name: given } : {}),
      ...(family ? { family_name: family } : {}),
      name,
      identifiers,
      affiliations: affiliationsOf(row.affiliations),
    },
  };
}

export function mapSubjectRow(row: Row, where: string): ImportItem<SubjectEntry> {
  const id = text(row.id);
  const scheme = text(row.scheme);
  const subject = text(row.subject);
  if (!id || !scheme || !subject) {
    const missing = (["id", "scheme", "subject"] as const).filter((k) => !text(row[k]));
    return { skip: `${where}: missing ${missing.join(", ")}` };
  }
  return { entry: { id, scheme, subject } };
}

/** Rows with where they came from ("line 3", "item 2"), or why a row could not be read at all. */
async function* rows(path: string, format: Format, count: (n: number) => void): AsyncGenerator<{ row: Row; where: string } | { skip: string }> {
  const content = fileContent(path, count);
  if (format === "jsonl") {
    let n = 0;
    for await (const line of lines(content)) {
      n++;
      if (!line.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        yield { skip: `line ${n}: invalid JSON: ${(err as Error).message}` };
        continue;
      }
      if (isObject(value)) yield { row: value, where: `line ${n}` };
      else yield { skip: `line ${n}: not a JSON object` };
    }
  } else if (format === "csv") {
    const parser = csvParser({ columns: true, bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true });
    const records = pipeline(Readable.from(content, { objectMode: false }), parser, () => {});
    for await (const { record, info } of records as AsyncIterable<{ record: Row; info: { lines: number } }>) {
      yield { row: record, where: `line ${info.lines}` };
    }
  } else {
    // YAML vocabularies (subjects lists) are small, and a YAML list only makes sense as a whole
    // document, so this one format is read whole rather than streamed.
    const chunks: Uint8Array[] = [];
    for await (const chunk of content) chunks.push(chunk);
    const doc: unknown = parseYaml(Buffer.concat(chunks).toString("utf-8"));
    if (!Array.isArray(doc)) throw new Error(`${path}: expected a YAML list of objects`);
    for (const [i, value] of doc.entries()) {
      if (isObject(value)) yield { row: value, where: `item ${i + 1}` };
      else yield { skip: `item ${i + 1}: not an object` };
    }
  }
}

/** Streams names or subjects from a CSV (with a header row), JSON Lines or YAML file. */
export async function* readTabular<T extends TabularType>(path: string, type: T, onProgress?: Progress): AsyncGenerator<ImportItem<EntryByType[T]>> {
  const format = tabularFormat(path);
  const count = progressCounter(await fileSize(path), onProgress);
  const map = type === "names" ? mapNameRow : mapSubjectRow;
  for await (const item of rows(path, format, count)) {
    yield ("skip" in item ? item : map(item.row, item.where)) as ImportItem<EntryByType[T]>;
  }
}
