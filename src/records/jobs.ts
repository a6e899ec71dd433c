// Background jobs of records: the daily embargo lifting, and DataCite registration after publish
// (defined only when DataCite credentials are configured; otherwise DOIs stay reserved locally).
import type { Config } from "../config";
import { systemActor } from "../core/actor";
import type { JobRegistry } from "../jobs/registry";
import { defineDataciteJobs, shouldRegister } from "../pids/jobs";
import type { VocabularyLookup } from "../vocabularies/model";
import type { RecordsService } from "./service";

/** Rebuilds the search index in the background (queued by the server when it finds the index incomplete). */
export const REINDEX_JOB = "records-reindex";

export function defineRecordJobs(registry: JobRegistry, deps: { records: RecordsService; config: Config; lookup: VocabularyLookup; log(m: string): void }) {
  registry.define({
    name: "embargo-lift",
    description: "Lifts embargoes that ended: the record and its files become public.",
    schedule: { dailyAt: "00:02" },
    run: () => deps.records.liftExpiredEmbargoes(),
  });
  registry.define({
    name: REINDEX_JOB,
    description: "Rebuilds the records search index beside the live one and swaps it in (as cairn reindex does).",
    maxAttempts: 3,
    run: async () => {
      const records = await deps.records.reindex(systemActor);
      deps.log(`search index rebuilt: ${records} records`);
      return { records };
    },
  });
  if (shouldRegister(deps.config)) {
    defineDataciteJobs(registry, {
      config: deps.config,
      loadRecord: (id) => deps.records.loadRecordJson(id),
      recordUrl: (id) => `${deps.config.BASE_URL}/records/${id}`,
      vocabulary: deps.lookup,
      versionDois: (parentId) => deps.records.listVersionDois(parentId),
      log: deps.log,
    });
  }
}
