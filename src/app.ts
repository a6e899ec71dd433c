// createApp: opens the data directory, wires every service and mounts every module's routes.
// Used alike by `serve`, the CLI commands and the tests.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Elysia } from "elysia";
import type { Config } from "./config";
import type { Deps } from "./core/deps";
import { systemActor } from "./core/actor";
import { actorContext, httpHooks } from "./core/http";
import { newUuid } from "./core/ids";
import { createLinks } from "./core/links";
import { systemClock, type Clock } from "./core/time";
import { migrate, openDatabase } from "./db/connection";
import { docsRoutes } from "./docs/routes";
import { groupsRoutes } from "./groups/routes";
import { createGroupsService } from "./groups/service";
import { defineMaintenanceJobs } from "./jobs/maintenance";
import { createJobRegistry } from "./jobs/registry";
import { createJobsService } from "./jobs/service";
import { createWorker } from "./jobs/worker";
import { filesRoutes, FILE_CONTENT_ROUTES } from "./files/routes";
import { defineFileJobs } from "./files/jobs";
import { createFilesService } from "./files/service";
import { createFileStore } from "./storage/file-store";
import { exportsRoutes } from "./exports/routes";
import { createExportsService } from "./exports/service";
import { doiResolverUrl } from "./pids/doi";
import { recordsRoutes } from "./records/routes";
import { defineRecordJobs } from "./records/jobs";
import { createRecordsService, type RecordsService } from "./records/service";
import { defineStatsJobs } from "./stats/jobs";
import { statsRoutes } from "./stats/routes";
import { createStatsService, type StatsService } from "./stats/service";
import { createTokensService } from "./tokens/service";
import { usersRoutes } from "./users/routes";
import { createUsersService } from "./users/service";
import { oaiHarvestRoutes, oaiSetsRoutes, OAI_FORM_ROUTES } from "./oai/routes";
import { createOaiService, type OaiService } from "./oai/service";
import type { VisibilityChange } from "./records/context";
import { VERSION } from "./version";
import { fixturesVersion, shippedVocabularies } from "./vocabularies/fixtures";
import { vocabulariesRoutes } from "./vocabularies/routes";
import { createVocabulariesService } from "./vocabularies/service";

export interface AppOptions {
  config: Config;
  clock?: Clock;
  log?: (message: string) => void;
}

export function createServices(options: AppOptions) {
  const { config, clock = systemClock, log = (m: string) => console.error(m) } = options;
  mkdirSync(config.DATA_DIR, { recursive: true });
  const db = openDatabase(join(config.DATA_DIR, "cairn.db"));
  migrate(db, clock.now());
  const deps: Deps = { db, clock, config, links: createLinks(config.BASE_URL) };
  const registry = createJobRegistry();
  defineMaintenanceJobs(registry, { db, clock, retentionDays: config.JOBS_RETENTION_DAYS });
  const runner = { db, clock, registry, log };
  const vocabularies = createVocabulariesService(deps);
  vocabularies.loadFixtures(shippedVocabularies, fixturesVersion());
  const jobs = createJobsService(runner);
  const enqueue = (name: string, payload: unknown) => {
    if (registry.get(name)) jobs.enqueue(name, payload);
  };
  // Files and records ask each other questions: the records service is bound once it exists.
  let records: RecordsService | undefined;
  let stats: StatsService | undefined;
  const owners = () => records!.fileOwners;
  const files = createFilesService({
    ...deps,
    files: createFileStore(join(config.DATA_DIR, "files")),
    owners: {
      draftTarget: (actor, id) => owners().draftTarget(actor, id),
      recordTarget: (actor, id) => owners().recordTarget(actor, id),
      importSource: (id) => owners().importSource(id),
    },
    enqueue,
    // Every content response that sends bytes counts as a download (statistics are bound below).
    onDownload: (e) => stats?.recordDownload({ recordId: e.recordId, parentId: e.parentId, fileKey: e.key, bytes: e.bytes, actor: e.actor, request: e.request }),
    log,
  });
  // OAI-PMH keeps tombstones of records that stop being public: records report each re-index to it.
  let oai: OaiService | undefined;
  const onVisibilityChange = (change: VisibilityChange) => oai?.noteVisibilityChange(change);
  // Statistics ask records who may see a record's counts and feed the popularity sorts; records show the counts.
  const recordStats = config.STATS_ENABLED ? (id: string, parentId: string) => stats!.recordStats(id, parentId) : undefined;
  records = createRecordsService({ ...deps, lookup: vocabularies.lookup, enqueue, files: files.hooks, onVisibilityChange, recordStats });
  const recordsService = records;
  stats = createStatsService({ ...deps, records, onPopularity: (rows) => recordsService.updatePopularity(rows), log });
  defineStatsJobs(registry, stats);
  defineFileJobs(registry, { files, config, log });
  defineRecordJobs(registry, { records, config, lookup: vocabularies.lookup, log });
  const exportsService = createExportsService({
    readRecord: records.readRecord,
    links: deps.links,
    siteName: config.THEME_SITENAME,
    lookup: vocabularies.lookup,
    doiUrl: (doi) => doiResolverUrl(doi, config.DATACITE_TEST_MODE),
  });
  const users = createUsersService(deps);
  const adminEmails = () => users.adminEmails(systemActor);
  oai = createOaiService({ ...deps, records, exportContext: exportsService.context(), adminEmails });
  return {
    deps,
    log,
    users,
    tokens: createTokensService(deps),
    groups: createGroupsService(deps),
    records,
    files,
    exports: exportsService,
    oai,
    vocabularies,
    jobs,
    worker: createWorker(runner, { concurrency: config.JOBS_CONCURRENCY, pollMs: config.JOBS_POLL_INTERVAL_MS }),
    stats,
    close: () => {
      stats.close(); // buffered view/download events are written first
      db.$client.close();
    },
  };
}

export type Services = ReturnType<typeof createServices>;

export function createApp(options: AppOptions) {
  const services = createServices(options);
  const { config } = services.deps;
  const http = actorContext(services.tokens.authenticate, newUuid());
  const app: Elysia = new Elysia()
    .use(
      httpHooks(
        {
          allowedHosts: config.APP_ALLOWED_HOSTS,
          maxContentLength: config.MAX_CONTENT_LENGTH,
          logRequests: config.LOG_REQUESTS,
          authenticate: services.tokens.authenticate,
          streamedBodyRoutes: new Set<string>(FILE_CONTENT_ROUTES),
          formBodyRoutes: new Set<string>(OAI_FORM_ROUTES),
        },
        () => app.routes,
        () => (request) => app.handle(request),
      ),
    )
    .get("/ping", () => new Response("OK", { headers: { "Content-Type": "text/plain; charset=utf-8" } }), { detail: { hide: true } })
    .use(docsRoutes(VERSION))
    .use(vocabulariesRoutes(http, services.vocabularies))
    // Before the records routes: it serves GET /api/records/{id} in every representation.
    .use(exportsRoutes(http, services.exports, (view) => services.stats.recordView(view)))
    .use(recordsRoutes(http, services.records))
    .use(filesRoutes(http, services.files))
    .use(groupsRoutes(http, services.groups))
    .use(usersRoutes(http, services.users))
    .use(statsRoutes(http, services.stats))
    .use(oaiSetsRoutes(http, services.oai))
    .use(oaiHarvestRoutes(services.oai)) as unknown as Elysia;
  // Visitors are told apart by address: only the server that received a request knows it.
  services.stats.setAddressResolver((request) => app.server?.requestIP(request)?.address ?? null);
  return { app, services };
}

export type App = ReturnType<typeof createApp>;
