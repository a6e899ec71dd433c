// `cairn serve`: the HTTP(S) server, the job worker, and a graceful shutdown of both.
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import type { Server } from "bun";
import { createApp } from "../app";
import { databasePathOf } from "../db/open";
import { REINDEX_JOB } from "../records/jobs";
import { ConfigError, type Config } from "../config";
import { startCheckpointer } from "../db/sqlite/checkpointer";
import { sqliteOf } from "../db/sqlite/port";
import { ensureAdministrator } from "./bootstrap";
import { secureDataDir } from "./data-dir";
import { takePidLock } from "./lock";
import { rawTargetRoutes } from "./raw-target";
import { ensureSelfSignedCertificate } from "./tls";

/**
 * Bun answers a request whose header block passes its limit with a bare 431 (no body, no type),
 * before any code of ours runs. Its limit is raised past the URL limit the app answers in JSON
 * (core/request-target.ts); only a header block larger than this still gets Bun's bare answer.
 * Bun.serve reads the limit from node:http's process-wide maxHeaderSize.
 */
const MAX_HEADER_BYTES = 64 * 1024;

/** The start's one line when MAIL_SERVER is empty. */
export const MAIL_OFF_WARNING =
  "WARNING: MAIL_SERVER is empty, so mail is off: confirmation, password and access-request links and notifications wait in the outbox and nobody receives them (set MAIL_SERVER to send them).";

export interface RunningServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

function readTls(config: Config) {
  for (const file of [config.TLS_CERT, config.TLS_KEY]) {
    if (!existsSync(file)) throw new ConfigError(`TLS file ${file} does not exist`);
  }
  return { cert: readFileSync(config.TLS_CERT, "utf8"), key: readFileSync(config.TLS_KEY, "utf8") };
}

/** Bun.serve, with a port already taken said in one line (app.listen shared it silently: reusePort). */
function listen(options: Parameters<typeof Bun.serve>[0]) {
  try {
    return Bun.serve(options);
  } catch (err) {
    if ((err as { code?: string }).code === "EADDRINUSE") throw new ConfigError(`${options.hostname}:${options.port} is in use by another program`);
    throw err;
  }
}

/** A worker of `cairn serve --workers N` (server/workers.ts): its supervisor holds the data directory's pid file, and it shares the port. */
export interface WorkerOptions {
  index: number;
}

export async function startServer(
  config: Config,
  say: (line: string) => void = console.log,
  warn: (line: string) => void = console.error,
  worker: WorkerOptions | null = null,
): Promise<RunningServer> {
  const startedAt = performance.now();
  // Given back at stop, for callers that run a server in their own process (tests).
  const umask = process.umask();
  secureDataDir(config.DATA_DIR, warn);
  // The lock first: a second server is refused before it opens (and migrates) the database, and,
  // holding no connection pool yet, exits at once (a PostgreSQL pool would keep it alive).
  const releaseLock = worker ? () => {} : takePidLock(config.DATA_DIR, config.PORT);
  let created: ReturnType<typeof createApp>;
  try {
    created = createApp({ config });
  } catch (error) {
    releaseLock();
    throw error;
  }
  const { app, services, directRoutes } = created;
  try {
    // The shipped vocabularies are loaded before the first request is served.
    await services.ready;
    // Upload leftovers (temporary files, parts of deleted uploads, the object store's unrecorded
    // uploads) are cleared before serving, and only when no other process serves the database:
    // another one's uploads in progress look the same. (The CLI may run beside a server.)
    if ((await services.worker.otherInstances()) === 0) await services.files.cleanStore();
    const credentials = await ensureAdministrator(services);
    if (credentials) {
      say(`Created administrator ${credentials.email}; its password and API token are in ${credentials.path}`);
      // OAI-PMH Identify names an administrator's address: one nobody owns helps no harvester.
      if (!config.OAISERVER_ADMIN_EMAIL && !/@[^@]+\.[^@.]+$/.test(credentials.email)) {
        say(`OAI-PMH Identify has no deliverable adminEmail: start with --admin-email you@your.institution (on a new data directory) or set OAISERVER_ADMIN_EMAIL.`);
      }
    }
    let tls: { cert: string; key: string } | undefined;
    if (!config.HTTP) {
      tls = config.TLS_CERT ? readTls(config) : await ensureSelfSignedCertificate(config.DATA_DIR, config.APP_ALLOWED_HOSTS);
    }
    (http as { maxHeaderSize: number }).maxHeaderSize = MAX_HEADER_BYTES;
    // Bun.serve rather than app.listen: every request goes through a route matched on the raw
    // target (server/raw-target.ts), where dot segments can still be seen; Elysia routes after,
    // except for the direct routes (app.ts), which Bun's router prefers for their literal segments.
    const server = listen({
      hostname: config.HOST,
      port: config.PORT,
      tls,
      // JSON bodies are limited by MAX_CONTENT_LENGTH as they are read; file uploads stream, so
      // Bun's own limit only has to let the largest allowed file through.
      maxRequestBodySize: Math.max(config.MAX_CONTENT_LENGTH, config.RDM_FILES_DEFAULT_MAX_FILE_SIZE) + 1024 * 1024,
      idleTimeout: 30,
      development: false,
      // The workers of one supervisor bind the same port; Linux spreads the connections over them.
      reusePort: worker !== null,
      routes: { ...rawTargetRoutes(app.fetch), ...directRoutes },
      fetch: app.fetch,
    });
    // What app.listen would do: routes read `server` (client addresses), app.stop() stops it.
    (app as { server: Server<undefined> | null }).server = server;
    await services.worker.start();
    // An index that does not hold every record (a crash or an old interrupted reindex) searches and
    // harvests silently short: say so and rebuild it in the background.
    const index = await services.records.checkIndex();
    if (!index.complete) {
      say(
        index.outdated
          ? "The search index was built by an older Cairn: rebuilding it in the background (until then _exists_ on full-text fields finds nothing)."
          : `WARNING: the search index holds ${index.indexedRecords} of ${index.records} records and ${index.indexedDrafts} of ${index.drafts} drafts: rebuilding it in the background (searches and OAI-PMH are incomplete until then).`,
      );
      await services.jobs.enqueueOnce(REINDEX_JOB);
    }
    // Checkpoints off the request thread: only the long-running server needs them (see db/sqlite/checkpointer).
    const checkpointer = services.deps.db.engine === "sqlite" ? startCheckpointer(sqliteOf(services.deps.db), databasePathOf(config), services.log) : null;
    const port = app.server!.port!;
    say(
      `${worker ? `Worker ${worker.index} (pid ${process.pid})` : "Cairn"} serving ${config.BASE_URL} (listening on ${tls ? "https" : "http"}://${config.HOST}:${port}, data in ${config.DATA_DIR}) after ${Math.round(performance.now() - startedAt)} ms`,
    );
    // Without a mail server nobody receives a confirmation, a reset link or a notification: said once, at the start.
    if (!config.MAIL_SERVER && (worker?.index ?? 1) === 1) warn(MAIL_OFF_WARNING);
    let stopped: Promise<void> | null = null;
    return {
      url: config.BASE_URL,
      port,
      stop: () =>
        (stopped ??= (async () => {
          await app.stop(false); // finish in-flight requests, refuse new ones
          await services.worker.stop();
          await checkpointer?.stop();
          await services.close();
          releaseLock();
          process.umask(umask);
        })()),
    };
  } catch (err) {
    await services.close();
    releaseLock();
    process.umask(umask);
    throw err;
  }
}
