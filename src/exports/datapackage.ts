// Frictionless Data Package (v1, specs.frictionlessdata.io/data-package) descriptor of a record:
// its metadata, and its files as resources with their content URLs, sizes and MD5 hashes.
import { compact } from "../core/compact";
import { list, type JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import { citeAsUrl, filesOf, landingPage, nonBlank, personOf, plainDescription, type FileItem } from "./record-fields";
import { keywordsOf, licencesOf, orcidUrl } from "./software-fields";
import type { ExportContext, ExportFormat } from "./types";

export const dataPackageFormat: ExportFormat = {
  id: "datapackage",
  label: "Data Package",
  // Registered with IANA for the Data Package descriptor (2017).
  mediaTypes: ["application/vnd.datapackage+json"],
  extension: "json",
  render: (record, ctx) => JSON.stringify(dataPackage(record, ctx)),
};

// Package and resource names: lower case letters, digits and `.`, `_`, `-` (the spec's pattern
// also admits `/`, which Data Package v2 and most tools do not).
const NAME_CHARS = /[^a-z0-9._-]+/g;
// A licence name's pattern: the deprecated SPDX ids with `+` (GPL-2.0+) go by path and title only.
const LICENCE_NAME = /^[-a-zA-Z0-9._]+$/;

export function dataPackage(record: RecordDocument, ctx: ExportContext): JsonObject {
  const metadata: JsonObject = record.metadata ?? {};
  return compact({
    name: packageName(String(record.id ?? "")), // name
    id: citeAsUrl(record, ctx), // id: a globally unique identifier (the DOI URL)
    title: nonBlank(metadata.title), // title
    description: plainDescription(record), // description
    version: nonBlank(metadata.version), // version
    homepage: landingPage(record, ctx), // homepage
    created: rfc3339(record.created), // created (RFC 3339 date-time)
    keywords: keywordsOf(record), // keywords
    // licenses: name (an SPDX id is an Open Definition id), path (the licence text) and title; one of name and path is required.
    licenses: licencesOf(record, ctx).map((l) => compact({ name: l.spdx && LICENCE_NAME.test(l.spdx) ? l.spdx : undefined, path: l.url, title: l.title })),
    contributors: contributors(record), // contributors
    resources: resources(record, ctx), // resources
  });
}

const packageName = (id: string) => id.toLowerCase().replace(NAME_CHARS, "-") || "record";

// Record times are `YYYY-MM-DD HH:MM:SS.ffffff` in UTC (core/time.ts); `created` wants RFC 3339.
function rfc3339(value: unknown): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:\d{2})?$/.exec(String(value ?? "").trim());
  return m ? `${m[1]}T${m[2]}${m[3] ?? "Z"}` : undefined;
}

// contributors: creators as authors, contributors as contributors, the publisher as publisher.
function contributors(record: RecordDocument): JsonObject[] {
  const metadata: JsonObject = record.metadata ?? {};
  const entry = (person: JsonObject, role: string) => {
    const p = personOf(person);
    // title (required), path (a page about them: the ORCID), organisation (the first affiliation), role.
    return p.name ? compact({ title: p.name, path: orcidUrl(p.orcid), organisation: p.affiliations[0], role }) : undefined;
  };
  const publisher = nonBlank(metadata.publisher);
  return [
    ...list(metadata.creators).map((c) => entry(c, "author")),
    ...list(metadata.contributors).map((c) => entry(c, "contributor")),
    publisher ? { title: publisher, role: "publisher" } : undefined,
  ].filter((c): c is JsonObject => Boolean(c));
}

/**
 * resources: one per file the caller may see (the record as given lists only those). A package
 * needs at least one resource, so a record without visible files (metadata-only, or files the
 * caller may not read) has its record JSON as the one resource: a real resource the same caller
 * can fetch, rather than an invalid package or a 404 for a format every record advertises.
 */
function resources(record: RecordDocument, ctx: ExportContext): JsonObject[] {
  const files = filesOf(record, ctx);
  if (!files.length) {
    const self = nonBlank(record.links?.self) ?? ctx.links.api(`/records/${record.id}`);
    return [{ name: "metadata", path: self, title: "Record metadata (InvenioRDM JSON)", mediatype: "application/json", format: "json" }];
  }
  const taken = new Set<string>();
  return files.map((file) => resource(file, uniqueName(file.key, taken)));
}

function resource(file: FileItem, name: string): JsonObject {
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.key)?.[1]?.toLowerCase();
  return compact({
    name, // name: unique within the package, lower case
    path: file.url, // path: the file's content URL
    title: file.key, // title: the file name as uploaded
    bytes: file.size, // bytes
    hash: hashOf(file.checksum), // hash: MD5 in hex, other algorithms as `algorithm:hex`
    mediatype: file.mimetype && /^[^/]+\/[^/]+$/.test(file.mimetype) ? file.mimetype : undefined, // mediatype
    format: extension, // format: the file extension
  });
}

// File names become resource names: lower-cased, other characters as `-`, a suffix when two collide.
function uniqueName(key: string, taken: Set<string>): string {
  const base =
    key
      .toLowerCase()
      .replace(NAME_CHARS, "-")
      .replace(/^-+|-+$/g, "") || "file";
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

function hashOf(checksum: string | undefined): string | undefined {
  const m = /^([a-z0-9-]+):([0-9a-f]+)$/i.exec(checksum ?? "");
  if (!m) return undefined;
  const [algorithm, hex] = [m[1]!.toLowerCase(), m[2]!.toLowerCase()];
  return algorithm === "md5" && hex.length === 32 ? hex : `${algorithm}:${hex}`;
}
