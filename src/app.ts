// createApp: opens the data directory, wires every service and mounts every module's routes.
// Used alike by `serve`, the CLI commands and the tests.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Elysia } from "elysia";
import type { Config } from "./config";
import type { Deps } from "./core/deps";
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
import { recordsRoutes } from "./records/routes";
import { defineRecordJobs } from "./records/jobs";
import { createRecordsService } from "./records/service";
import { createTokensService } from "./tokens/service";
import { usersRoutes } from "./users/routes";
import { createUsersService } from "./users/service";
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
  const records = createRecordsService({
    ...deps,
    lookup: vocabularies.lookup,
    enqueue: (name, payload) => {
      if (registry.get(name)) jobs.enqueue(name, payload);
    },
    fileCount: () => 0,
  });
  defineRecordJobs(registry, { records, config, lookup: vocabularies.lookup, log });
  return {
    deps,
    log,
    users: createUsersService(deps),
    tokens: createTokensService(deps),
    groups: createGroupsService(deps),
    records,
    vocabularies,
    jobs,
    worker: createWorker(runner, { concurrency: config.JOBS_CONCURRENCY, pollMs: config.JOBS_POLL_INTERVAL_MS }),
    close: () => db.$client.close(),
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
          streamedBodyRoutes: new Set<string>(),
        },
        () => app.routes,
      ),
    )
    .get("/ping", () => new Response("OK", { headers: { "Content-Type": "text/plain; charset=utf-8" } }), { detail: { hide: true } })
    .use(docsRoutes(VERSION))
    .use(vocabulariesRoutes(http, services.vocabularies))
    .use(recordsRoutes(http, services.records))
    .use(groupsRoutes(http, services.groups))
    .use(usersRoutes(http, services.users)) as unknown as Elysia;
  return { app, services };
}

export type App = ReturnType<typeof createApp>;
