// What the CodeMeta, Citation File Format and Data Package exports read alike: licences with
// their SPDX identifiers, keywords, the ORCID URL of a person and the code repository of software.
import spdxLicences from "spdx-license-list/spdx.json" with { type: "json" };
import { list, type JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import { nonBlank, titleOf, vocabProps } from "./record-fields";
import type { ExportContext } from "./types";

// Licence vocabulary ids are SPDX ids lowercased (vocabularies/fixtures.ts); the standards want SPDX's own case.
const SPDX_IDS = new Map(Object.keys(spdxLicences).map((id) => [id.toLowerCase(), id]));

export interface Licence {
  /** SPDX identifier in SPDX's case (`CC-BY-4.0`), for licences of the SPDX list. */
  spdx?: string;
  /** The licence text's URL: the vocabulary's, else the record's own link. */
  url?: string;
  title?: string;
}

/** The record's rights as licences; a right with neither an SPDX id nor a link says nothing a machine can use and is left out. */
export function licencesOf(record: RecordDocument, ctx: ExportContext): Licence[] {
  return list(record.metadata?.rights)
    .map((right: JsonObject) => {
      const spdx = typeof right?.id === "string" ? SPDX_IDS.get(right.id.toLowerCase()) : undefined;
      // titleOf would read an untitled right's id as its title: only a real title (the record's, else the vocabulary's).
      const entry = right?.title ? right : right?.id ? ctx.lookup("licenses", right.id) : undefined;
      const title = entry?.title ? titleOf({ title: entry.title }) : undefined;
      return { spdx, url: nonBlank(vocabProps(ctx, "licenses", right).url) ?? nonBlank(right?.link), title };
    })
    .filter((l) => l.spdx || l.url);
}

/** Subjects as keywords: the free-text subject, else the vocabulary term's title; each once. */
export function keywordsOf(record: RecordDocument): string[] {
  const words = list(record.metadata?.subjects).map((s: JsonObject) => nonBlank(s?.subject) ?? titleOf(s));
  return [...new Set(words.filter((w): w is string => Boolean(w)))];
}

export const orcidUrl = (orcid: string | undefined) => (orcid ? `https://orcid.org/${orcid}` : undefined);

export const isSoftware = (record: RecordDocument) => /^software(-|$)/.test(String(record.metadata?.resource_type?.id ?? ""));

/**
 * Where the code of a software record lives: a URL related identifier that the record supplements
 * and whose resource type is software (InvenioRDM's CFF rule, which GitHub-archived releases follow).
 */
export function codeRepositoryOf(record: RecordDocument): string | undefined {
  if (!isSoftware(record)) return undefined;
  const repository = list(record.metadata?.related_identifiers).find(
    (r: JsonObject) => r?.scheme === "url" && r?.relation_type?.id === "issupplementto" && r?.resource_type?.id === "software",
  );
  return nonBlank(repository?.identifier);
}
