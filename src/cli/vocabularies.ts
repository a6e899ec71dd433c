// `cairn vocabularies import TYPE FILE`: streams a public dump into a vocabulary.
import { statSync } from "node:fs";
import { systemActor } from "../core/actor";
import { HttpError } from "../core/errors";
import type { ImportItem, SpecificType } from "../vocabularies/model";
import { SPECIFIC_TYPES } from "../vocabularies/model";
import { readOpenaireProjects } from "../vocabularies/importers/openaire";
import { readOrcid } from "../vocabularies/importers/orcid";
import { readRor } from "../vocabularies/importers/ror";
import { readTabular } from "../vocabularies/importers/tabular";
import type { ImportSummary } from "../vocabularies/service";
import { parse, UsageError, type Command } from "./args";
import { progressBar } from "./progress";
import { withServices } from "./services";

type Progress = (bytesRead: number, totalBytes: number) => void;

const TABULAR = /\.(csv|jsonl|ndjson|ya?ml)(\.gz)?$/i;

/** The reader for a type and a file: the format follows the type, then the file's name. */
function readerFor(type: SpecificType, path: string, onProgress: Progress): AsyncIterable<ImportItem<object>> {
  const isDirectory = statSync(path).isDirectory();
  switch (type) {
    case "funders":
    case "affiliations":
      return readRor(path, type, onProgress);
    case "names":
      if (!isDirectory && TABULAR.test(path)) return readTabular(path, "names", onProgress);
      if (isDirectory || /\.(xml|tar\.gz|tgz)$/i.test(path)) return readOrcid(path, onProgress);
      throw new UsageError(`names are read from ORCID summaries (.xml, a folder of them, .tar.gz) or .csv/.jsonl/.yaml, not ${path}`);
    case "subjects":
      if (!TABULAR.test(path)) throw new UsageError(`subjects are read from .csv, .jsonl or .yaml files, not ${path}`);
      return readTabular(path, "subjects", onProgress);
    case "awards":
      return readOpenaireProjects(path, onProgress);
  }
}

export function describeSummary(type: string, s: ImportSummary): string {
  const skipped = Object.values(s.skipped).reduce((a, b) => a + b, 0);
  const reasons = Object.entries(s.skipped)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${n} ${reason}`)
    .join("; ");
  return `${type}: created ${s.created}, updated ${s.updated}, unchanged ${s.unchanged}, skipped ${skipped}${reasons ? ` (${reasons})` : ""}`;
}

export const vocabulariesCommand: Command = {
  name: "vocabularies",
  summary: "Import vocabularies (funders, affiliations, names, subjects, awards) from public dumps.",
  usage: `cairn vocabularies import TYPE FILE
    funders, affiliations  the ROR data dump, schema v2 (.json or .json.gz)
    names                  ORCID public data summaries (.xml, a folder of them, or the .tar.gz),
                           or .csv/.jsonl/.yaml rows of {given_name, family_name, identifiers, affiliations}
    subjects               .csv/.jsonl/.yaml rows of {id, scheme, subject}
    awards                 the OpenAIRE Graph projects dump (JSON lines, .gz or plain)
  Streams the file, writes in batched transactions, and is idempotent: importing again updates
  changed entries and never duplicates. Ends with a summary: created, updated, unchanged, skipped
  with reasons. Safe beside a running server.`,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub !== "import") throw new UsageError(sub ? `unknown vocabularies command '${sub}' (import)` : "vocabularies needs a command: import");
    const { values, positionals } = parse(rest, {}, 2);
    const [type, file] = positionals;
    if (!type || !(SPECIFIC_TYPES as readonly string[]).includes(type)) throw new UsageError(`vocabularies import needs a TYPE: ${SPECIFIC_TYPES.join(", ")}`);
    if (!file) throw new UsageError("vocabularies import needs the FILE to read");
    try {
      statSync(file);
    } catch {
      throw new UsageError(`${file} does not exist`);
    }
    const bar = progressBar(`importing ${type}`);
    let bytes = [0, 0] as [number, number];
    const items = readerFor(type as SpecificType, file, (read, total) => (bytes = [read, total]));
    const summary = await withServices(values, (s) =>
      s.vocabularies.importEntries(systemActor, type as SpecificType, items, (sum) => bar.update(bytes[0], bytes[1], `${sum.created + sum.updated + sum.unchanged} entries`)),
    ).catch((err: unknown) => {
      bar.done();
      // A dump that cannot be read is the caller's input: say what and where, exit 2. Batches
      // written before the fault stay; importing again after a fix completes the rest.
      if (err instanceof UsageError || err instanceof HttpError || !(err instanceof Error)) throw err;
      throw new UsageError(`cannot read ${file}: ${err.message.split("\n")[0]}`);
    });
    bar.done();
    console.log(describeSummary(type, summary));
    return 0;
  },
};
