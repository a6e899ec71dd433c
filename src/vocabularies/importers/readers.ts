// The reader for a vocabulary type and a dump file: the format follows the type, then the file's
// name (the CLI's `vocabularies import` and the import job both choose through here).
import { statSync } from "node:fs";
import type { ImportItem, SpecificType } from "../model";
import { readOpenaireProjects } from "./openaire";
import { readOrcid } from "./orcid";
import { readRor } from "./ror";
import type { Progress } from "./source";
import { readTabular } from "./tabular";

const TABULAR = /\.(csv|jsonl|ndjson|ya?ml)(\.gz)?$/i;

/** What a file of each type may be, for help texts and refusals. */
export const DUMP_FORMATS: Record<SpecificType, string> = {
  funders: "the ROR data dump, schema v2 (.json or .json.gz)",
  affiliations: "the ROR data dump, schema v2 (.json or .json.gz)",
  names: "ORCID public data summaries (.xml, a folder of them, or the .tar.gz), or .csv/.jsonl/.yaml rows of {given_name, family_name, identifiers, affiliations}",
  subjects: ".csv/.jsonl/.yaml rows of {id, scheme, subject}",
  awards: "the OpenAIRE Graph projects dump (JSON lines, .gz or plain)",
};

/** The items of a dump; throws (before reading anything) when the file's name does not fit the type. */
export function readerFor(type: SpecificType, path: string, onProgress: Progress): AsyncIterable<ImportItem<object>> {
  const isDirectory = statSync(path).isDirectory();
  switch (type) {
    case "funders":
    case "affiliations":
      return readRor(path, type, onProgress);
    case "names":
      if (!isDirectory && TABULAR.test(path)) return readTabular(path, "names", onProgress);
      if (isDirectory || /\.(xml|tar\.gz|tgz)$/i.test(path)) return readOrcid(path, onProgress);
      throw new Error(`names are read from ORCID summaries (.xml, a folder of them, .tar.gz) or .csv/.jsonl/.yaml, not ${path}`);
    case "subjects":
      if (!TABULAR.test(path)) throw new Error(`subjects are read from .csv, .jsonl or .yaml files, not ${path}`);
      return readTabular(path, "subjects", onProgress);
    case "awards":
      return readOpenaireProjects(path, onProgress);
  }
}
