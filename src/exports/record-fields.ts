// Reading values out of the record JSON that several export formats need: DOI and landing page,
// EDTF date parts, people, vocabulary props, and the file list with absolute download URLs.
import { stripHtml } from "../core/html";
import { list, type JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import type { ExportContext } from "./types";

export const nonBlank = (value: unknown): string | undefined => (typeof value === "string" && value.trim() ? value.trim() : undefined);

export const recordDoi = (record: RecordDocument): string | undefined => nonBlank(record.pids?.doi?.identifier);

/** The record's page for people (`links.self_html`), absolute. */
export function landingPage(record: RecordDocument, ctx: ExportContext): string {
  return nonBlank(record.links?.self_html) ?? ctx.links.html(`/records/${record.id}`);
}

/** What to cite: the DOI's resolver URL, else the landing page. */
export function citeAsUrl(record: RecordDocument, ctx: ExportContext): string {
  const doi = recordDoi(record);
  return doi ? ctx.doiUrl(doi) : landingPage(record, ctx);
}

/** Props of a vocabulary-backed value: dumped with it, else from the vocabulary. */
export function vocabProps(ctx: ExportContext, type: string, ref: JsonObject | undefined): Record<string, string> {
  if (!ref?.id) return {};
  return ref.props ?? ctx.lookup(type, ref.id)?.props ?? {};
}

/** English (else first) title of a vocabulary entry or of a `{lang: text}` object. */
export function titleOf(value: JsonObject | undefined): string | undefined {
  if (!value) return undefined;
  const title = value.title ?? value;
  if (typeof title === "string") return nonBlank(title);
  return nonBlank(title?.en) ?? nonBlank(Object.values(title ?? {})[0]);
}

export type DateParts = [number] | [number, number] | [number, number, number];

/** An EDTF level-0 date or interval as CSL-style parts: `2020-11/2021` -> [[2020, 11], [2021]]. */
export function edtfParts(value: unknown): DateParts[] {
  if (typeof value !== "string") return [];
  const out: DateParts[] = [];
  for (const bound of value.split("/")) {
    const m = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(bound.trim());
    if (!m) continue;
    out.push([Number(m[1]), ...(m[2] ? [Number(m[2])] : []), ...(m[3] ? [Number(m[3])] : [])] as DateParts);
  }
  return out;
}

/** A creator or contributor: personal names as family/given, organisations by name. */
export interface Person {
  name: string;
  personal: boolean;
  family?: string;
  given?: string;
  orcid?: string;
  identifiers: { scheme: string; identifier: string }[];
  affiliations: string[];
}

export function personOf(entry: JsonObject): Person {
  const p: JsonObject = entry.person_or_org ?? {};
  const personal = p.type !== "organizational";
  const family = personal ? nonBlank(p.family_name) : undefined;
  const given = personal ? nonBlank(p.given_name) : undefined;
  const identifiers = list(p.identifiers).filter((i) => nonBlank(i?.identifier) && nonBlank(i?.scheme));
  return {
    name: nonBlank(p.name) ?? [family, given].filter(Boolean).join(", "),
    personal,
    family,
    given,
    orcid: identifiers.find((i) => i.scheme === "orcid")?.identifier,
    identifiers,
    affiliations: list(entry.affiliations)
      .map((a) => nonBlank(a?.name) ?? nonBlank(a?.id))
      .filter((a): a is string => Boolean(a)),
  };
}

export const creatorsOf = (record: RecordDocument): Person[] => list(record.metadata?.creators).map(personOf);

/** The description as plain text, or undefined when there is none. */
export const plainDescription = (record: RecordDocument): string | undefined => nonBlank(stripHtml(record.metadata?.description ?? ""));

export interface FileItem {
  key: string;
  size?: number;
  mimetype?: string;
  checksum?: string;
  url: string;
}

/** The files the caller may see (the record service already reduced `files.entries`), with absolute content URLs. */
export function filesOf(record: RecordDocument, ctx: ExportContext): FileItem[] {
  const entries = record.files?.entries;
  if (!entries || typeof entries !== "object") return [];
  return Object.values(entries as Record<string, JsonObject>).map((e) => ({
    key: String(e.key),
    size: typeof e.size === "number" ? e.size : undefined,
    mimetype: nonBlank(e.mimetype),
    checksum: nonBlank(e.checksum),
    url: absolute(nonBlank(e.links?.content) ?? `/api/records/${record.id}/files/${String(e.key).split("/").map(encodeURIComponent).join("/")}/content`, ctx),
  }));
}

// File links are path-only in the record JSON (the spec's shape); exports need absolute URLs.
const absolute = (url: string, ctx: ExportContext) => (url.startsWith("/") ? ctx.links.baseUrl + url : url);
