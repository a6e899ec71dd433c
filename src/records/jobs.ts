// Background jobs of records: the daily embargo lifting, and DataCite registration after publish
// (defined only when DataCite credentials are configured; otherwise DOIs stay reserved locally).
import type { Config } from "../config";
import type { JobRegistry } from "../jobs/registry";
import { defineDataciteJobs, shouldRegister } from "../pids/jobs";
import type { VocabularyLookup } from "./metadata/check";
import type { RecordsService } from "./service";

export function defineRecordJobs(registry: JobRegistry, deps: { records: RecordsService; config: Config; lookup: VocabularyLookup; log(m: string): void }) {
  registry.define({
    name: "embargo-lift",
    description: "Lifts embargoes that ended: the record and its files become public.",
    schedule: { dailyAt: "00:02" },
    run: () => deps.records.liftExpiredEmbargoes(),
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
