// What the records index holds of a record or draft, for every engine: its record_index columns,
// the texts of its full-text columns, its exact-value terms (record_terms) and its presence bits.
// Each engine's indexer writes them (sqlite/indexer.ts, postgres/indexer.ts).
import { stripHtml } from "../../core/html";
import { objects, type JsonObject } from "../../core/json";
import type { RecordDocument } from "../../core/record-document";
import { shapeRow } from "../../db/rows";
import { recordsTable } from "../../db/tables";
import { accessStatus, type Access } from "../access";
import { isDeleted } from "../policy";
import type { RecordRow } from "../store";
import type { IndexedParent, IndexedRow } from "./index";
import { RECORD_SEARCH_SCHEMA } from "./schema";

type Doc = JsonObject;

const words = (...values: unknown[]): string =>
  values
    .flat(3)
    .filter((v) => typeof v === "string" && v)
    .join(" ");
const text = (html: unknown) => (typeof html === "string" ? stripHtml(html, { separateWords: true }) : "");
const titles = (t: unknown) => (t && typeof t === "object" ? Object.values(t as Doc) : []);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/** The texts of the five full-text columns. */
export function fullText(doc: RecordDocument) {
  const m: Doc = doc.metadata ?? {};
  const people = [...objects(m.creators), ...objects(m.contributors)];
  return {
    title: words(
      m.title,
      objects(m.additional_titles).map((t) => t.title),
    ),
    description: words(
      text(m.description),
      objects(m.additional_descriptions).map((d) => text(d.description)),
    ),
    creators: words(
      people.map((p) => [p.person_or_org?.name, p.person_or_org?.given_name, p.person_or_org?.family_name]),
      people.flatMap((p) => objects(p.affiliations).map((a) => a.name)),
    ),
    subjects: words(objects(m.subjects).map((s) => s.subject)),
    other: words(
      m.publisher,
      m.version,
      titles(m.resource_type?.title),
      objects(m.languages).map((l) => titles(l.title)),
      objects(m.funding).map((f) => [f.funder?.name, f.award?.number, titles(f.award?.title)]),
      objects(m.identifiers).map((i) => i.identifier),
      objects(m.related_identifiers).map((i) => i.identifier),
      objects(m.references).map((r) => r.reference),
      objects(m.locations?.features).map((f) => [f.place, f.description]),
    ),
  };
}

/** Whether `path` (object keys, arrays crossed) leads to a string with text somewhere in `value`. */
function hasText(value: unknown, path: string[]): boolean {
  if (Array.isArray(value)) return value.some((v) => hasText(v, path));
  if (path.length === 0) return typeof value === "string" && value.trim() !== "";
  return value !== null && typeof value === "object" && hasText((value as Doc)[path[0]!], path.slice(1));
}

const FULL_TEXT_FIELDS = RECORD_SEARCH_SCHEMA.fts.presence!.fields.map((name) => name.split("."));

/**
 * A bit for each full-text field the record has a value for (the schema's `presence` column):
 * `_exists_:metadata.version` cannot be read from FTS5, whose `other` column mixes several fields.
 * One integer of the row, not a term row per field: the terms cost a tenth of a publish.
 */
export function presenceBits(doc: RecordDocument): number {
  return FULL_TEXT_FIELDS.reduce((bits, path, i) => (hasText(doc, path) ? bits + 2 ** i : bits), 0);
}

/** Exact values by field (lower-cased), for keyword queries and facets. */
export function terms(row: { id: string; parentId: string }, doc: RecordDocument, parent: IndexedParent): [string, string][] {
  const m: Doc = doc.metadata ?? {};
  const out: [string, string][] = [];
  const add = (field: string, value: unknown) => {
    if (typeof value === "string" && value) out.push([field, value.toLowerCase()]);
  };
  add("id", row.id);
  add("parent.id", row.parentId);
  add("pids.doi.identifier", doc.pids?.doi?.identifier);
  add("parent.pids.doi.identifier", (parent.pids as JsonObject)?.doi?.identifier);
  for (const id of parent.communities) add("parent.communities.ids", id);
  add("access.record", doc.access?.record);
  add("access.files", doc.access?.files);
  add("metadata.resource_type.id", m.resource_type?.id);
  for (const l of objects(m.languages)) add("metadata.languages.id", l.id);
  for (const r of objects(m.rights)) add("metadata.rights.id", r.id);
  for (const s of objects(m.subjects)) add("metadata.subjects.id", s.id);
  for (const p of [...objects(m.creators), ...objects(m.contributors)]) {
    for (const i of objects(p.person_or_org?.identifiers)) add("metadata.creators.person_or_org.identifiers.identifier", i.identifier);
    for (const a of objects(p.affiliations)) add("metadata.creators.affiliations.id", a.id);
  }
  for (const f of objects(m.funding)) {
    add("metadata.funding.funder.id", f.funder?.id);
    add("metadata.funding.award.id", f.award?.id);
  }
  for (const i of objects(m.identifiers)) add("metadata.identifiers.identifier", i.identifier);
  for (const i of objects(m.related_identifiers)) add("metadata.related_identifiers.identifier", i.identifier);
  return out;
}

/** A comma-joined list column: distinct, lower-cased, sorted, as the facet groups compare them. */
const listColumn = (values: string[]) => [...new Set(values.map((v) => v.toLowerCase()).filter(Boolean))].sort().join(",");

/** The parent's popularity (all versions' unique views/downloads), which a rewritten or new version keeps. */
export interface Popularity {
  views: number | null;
  downloads: number | null;
}

/** The record_index columns of a record or draft (all but `key`), by column name. */
export function indexColumns(row: IndexedRow, parent: IndexedParent, popularity: Popularity | null): Record<string, string | number | null> {
  const doc = row.document as RecordDocument;
  const access = doc.access as Access;
  const m: Doc = doc.metadata ?? {};
  const resourceType: string | null = m.resource_type?.id ?? null;
  return {
    record_id: row.id,
    is_draft: row.isDraft ? 1 : 0,
    parent_id: row.parentId,
    owner_id: row.ownerId,
    deleted: isDeleted(row) ? 1 : 0,
    present: presenceBits(doc),
    is_latest: row.isLatest ? 1 : 0,
    access_record: row.accessRecord,
    access_status: accessStatus(access, doc.files?.enabled !== false),
    resource_type: resourceType,
    resource_type_parent: (m.resource_type?.props?.type as string | undefined) ?? resourceType?.split("-")[0] ?? null,
    languages: [
      ...new Set(
        objects(m.languages)
          .map((l) => String(l.id ?? "").toLowerCase())
          .filter(Boolean),
      ),
    ]
      .sort()
      .join(","),
    file_types: [...new Set(row.fileTypes ?? [])].sort().join(","),
    communities: listColumn(parent.communities),
    publication_date: typeof m.publication_date === "string" ? m.publication_date.split("/")[0]! : null,
    created: row.created,
    updated: row.updated,
    created_iso: iso(row.created),
    updated_iso: iso(row.updated),
    version_index: row.versionIndex,
    views: popularity?.views ?? 0,
    downloads: popularity?.downloads ?? 0,
  };
}

/** A raw `records` row as the typed row drizzle would give. */
export const rowOf = (raw: Record<string, unknown>): RecordRow => shapeRow(recordsTable, raw);
