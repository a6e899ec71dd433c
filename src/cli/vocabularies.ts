// `cairn vocabularies import TYPE FILE`: streams a public dump into a vocabulary; `update` downloads
// ROR's newest release; the entry commands (add, edit, retire, restore, list) are in vocabularies-entries.ts.
import { statSync } from "node:fs";
import { basename } from "node:path";
import { systemActor } from "../core/actor";
import { HttpError } from "../core/errors";
import type { ImportItem, SpecificType } from "../vocabularies/model";
import { SPECIFIC_TYPES } from "../vocabularies/model";
import { readerFor } from "../vocabularies/importers/readers";
import type { ImportSummary } from "../vocabularies/service";
import { parse, UsageError, type Command } from "./args";
import { progressBar } from "./progress";
import { withServices } from "./services";
import { ENTRY_COMMANDS, ENTRY_USAGE } from "./vocabularies-entries";

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
  summary: "List, add, edit and retire vocabulary entries; import vocabularies (funders, affiliations, names, subjects, awards) from public dumps.",
  usage: `${ENTRY_USAGE}
cairn vocabularies import TYPE FILE
cairn vocabularies update affiliations|funders
    funders, affiliations  the ROR data dump, schema v2 (.json or .json.gz)
    names                  ORCID public data summaries (.xml, a folder of them, or the .tar.gz),
                           or .csv/.jsonl/.yaml rows of {given_name, family_name, identifiers, affiliations}
    subjects               .csv/.jsonl/.yaml rows of {id, scheme, subject}
    awards                 the OpenAIRE Graph projects dump (JSON lines, .gz or plain)
  Streams the file, writes in batched transactions, and is idempotent: importing again updates
  changed entries and never duplicates. Ends with a summary: created, updated, unchanged, skipped
  with reasons. Safe beside a running server. Audited (vocabulary.import, via cli).
  update downloads ROR's newest data dump from VOCABULARIES_ROR_DUMP_URL (as InvenioRDM's
  \`vocabularies update --origin ror-http\`) and imports it, as the Vocabularies screen's job does.`,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "update") return updateFromRelease(rest);
    const entryCommand = sub === undefined ? undefined : ENTRY_COMMANDS[sub];
    if (entryCommand && Object.hasOwn(ENTRY_COMMANDS, sub!)) return entryCommand(rest);
    const known = `${Object.keys(ENTRY_COMMANDS).join(", ")}, import, update`;
    if (sub !== "import") throw new UsageError(sub ? `unknown vocabularies command '${sub}' (${known})` : `vocabularies needs a command: ${known}`);
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
    let items: AsyncIterable<ImportItem<object>>;
    try {
      items = readerFor(type as SpecificType, file, (read, total) => (bytes = [read, total]));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const summary = await withServices(values, (s) =>
      s.vocabularies.importEntries(systemActor, type as SpecificType, items, (sum) => bar.update(bytes[0], bytes[1], `${sum.created + sum.updated + sum.unchanged} entries`), {
        origin: { via: "cli", address: null },
        details: { source: "file", name: basename(file) },
      }),
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

/** `vocabularies update TYPE`: the import job's download of ROR's newest release, run now; audited via cli. */
async function updateFromRelease(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {}, 1);
  const [type] = positionals;
  if (type !== "affiliations" && type !== "funders") throw new UsageError("vocabularies update needs a TYPE: affiliations or funders (from ROR's newest release)");
  const job = await withServices(values, (s) => s.vocabularyImports.runRelease(systemActor, type, { via: "cli", address: null }));
  if (job.status !== "succeeded") {
    console.error(`cairn: the import of ROR's newest release failed: ${job.lastError ?? "no reason given"}`);
    return 1;
  }
  console.log(describeSummary(type, job.result as ImportSummary));
  return 0;
}
