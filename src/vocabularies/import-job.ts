// The `vocabulary-import` job: imports a dump (uploaded on the Vocabularies screen, or the
// publisher's newest release) into a vocabulary, reporting progress, and resumable: the import's
// folder keeps the dump and how many of its items are written, so a run cut by a restart goes on
// from there instead of from the start.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Config } from "../config";
import { systemActor } from "../core/actor";
import type { JobContext, JobRegistry } from "../jobs/registry";
import { readerFor } from "./importers/readers";
import type { ImportableType, ImportItem } from "./model";
import { fetchRorRelease } from "./release";
import type { ImportSummary, VocabulariesService } from "./service";

export const VOCABULARY_IMPORT_JOB = "vocabulary-import";

export interface ImportPayload {
  type: ImportableType;
  /** `upload`: the file in the folder; `release`: the publisher's newest release (ROR). */
  source: "upload" | "release";
  /** The import's folder under the data directory's `vocabulary-imports/`. */
  folder: string;
  /** The uploaded dump's file name in the folder. */
  file?: string;
  /** The name it was uploaded under (shown on the screen). */
  name?: string;
}

/** Where an import stands, written after each committed batch. */
interface ImportState {
  processed: number;
  summary: ImportSummary;
}

/** What the job answers: the import's totals. */
export interface ImportResult extends ImportSummary {
  type: string;
  source: string;
  name: string | null;
  processed: number;
}

export const importsRootOf = (config: Pick<Config, "DATA_DIR">) => join(config.DATA_DIR, "vocabulary-imports");
const FOLDER = /^[a-z0-9-]{1,64}$/;
const STATE_FILE = "state.json";

export function importFolder(config: Pick<Config, "DATA_DIR">, folder: string): string {
  if (!FOLDER.test(folder)) throw new Error(`'${folder}' is not an import folder's name`);
  return join(importsRootOf(config), folder);
}

const emptySummary = (): ImportSummary => ({ created: 0, updated: 0, unchanged: 0, skipped: {} });
export const processedOf = (s: ImportSummary) => s.created + s.updated + s.unchanged + Object.values(s.skipped).reduce((a, b) => a + b, 0);

function mergeSummaries(a: ImportSummary, b: ImportSummary): ImportSummary {
  const skipped = { ...a.skipped };
  for (const [reason, n] of Object.entries(b.skipped)) skipped[reason] = (skipped[reason] ?? 0) + n;
  return { created: a.created + b.created, updated: a.updated + b.updated, unchanged: a.unchanged + b.unchanged, skipped };
}

function readState(folder: string): ImportState {
  const path = join(folder, STATE_FILE);
  if (!existsSync(path)) return { processed: 0, summary: emptySummary() };
  return JSON.parse(readFileSync(path, "utf8")) as ImportState;
}

/** Shown in steps of 1,000 past the first thousand: the job's row is written when the message changes. */
const entriesRead = (n: number) => `entries read${n >= 1000 ? ` (${(n - (n % 1000)).toLocaleString("en")}+)` : ""}`;

/** Runs (or continues) one import; answers its totals, or null when the signal stopped it. */
export async function runImport(deps: { vocabularies: VocabulariesService; config: Config }, payload: ImportPayload, ctx: JobContext): Promise<ImportResult | null> {
  const folder = importFolder(deps.config, payload.folder);
  if (!existsSync(folder)) throw new Error(`The import's folder ${folder} is gone: upload the dump again.`);
  const label = payload.name ?? (payload.source === "release" ? "the ROR release" : "the dump");
  const file =
    payload.source === "release"
      ? await fetchRorRelease(deps.config.VOCABULARIES_ROR_DUMP_URL, folder, ctx.signal, (done, total, message) => ctx.progress({ done, total, message }))
      : join(folder, payload.file ?? "");
  if (ctx.signal.aborted) return null;
  const base = readState(folder);
  let bytes: [number, number] = [0, 0];
  const items = readerFor(payload.type, file, (read, total) => (bytes = [read, total]));
  let consumed = 0;
  // Items already written by an earlier run are read past, not written again.
  async function* remaining(): AsyncGenerator<ImportItem<object>> {
    for await (const item of items) {
      if (ctx.signal.aborted) return;
      consumed++;
      if (consumed <= base.processed) continue;
      await ctx.progress({ done: bytes[0], total: bytes[1], message: entriesRead(consumed) });
      yield item;
    }
  }
  let state = base;
  try {
    await deps.vocabularies.importEntries(systemActor, payload.type, remaining(), (summary) => {
      state = { processed: base.processed + processedOf(summary), summary: mergeSummaries(base.summary, summary) };
      writeFileSync(join(folder, STATE_FILE), JSON.stringify(state));
    });
  } catch (err) {
    throw new Error(`${label} could not be imported into ${payload.type}: ${(err as Error).message}`);
  }
  if (ctx.signal.aborted) return null;
  await ctx.progress({ done: bytes[1], total: bytes[1], message: entriesRead(state.processed) });
  // Done: the dump (gigabytes, for names) is not kept.
  await rm(folder, { recursive: true, force: true });
  return { type: payload.type, source: payload.source, name: payload.name ?? null, processed: state.processed, ...state.summary };
}

export function defineVocabularyJobs(registry: JobRegistry, deps: { vocabularies: VocabulariesService; config: Config }) {
  registry.define<ImportPayload>({
    name: VOCABULARY_IMPORT_JOB,
    description: "Imports a vocabulary dump (uploaded on the Vocabularies screen, or ROR's newest release), resuming where a restart cut it.",
    // A download may fail for a while; an uploaded file fails the same way each time (queued with one attempt).
    maxAttempts: 3,
    backoffMs: 5 * 60_000,
    run: async (payload, ctx) => (await runImport(deps, payload, ctx)) ?? { aborted: true },
  });
}
