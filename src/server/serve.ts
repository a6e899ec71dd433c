// `cairn serve`: the HTTP(S) server, the job worker, and a graceful shutdown of both.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../app";
import { REINDEX_JOB } from "../records/jobs";
import { ConfigError, type Config } from "../config";
import { startCheckpointer } from "../db/checkpointer";
import { ensureAdministrator } from "./bootstrap";
import { ensureSelfSignedCertificate } from "./tls";

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

/** One server per data directory: the jobs table and the file store expect a single writer process. */
function takePidLock(dataDir: string) {
  const path = join(dataDir, "cairn.pid");
  if (existsSync(path)) {
    const pid = Number(readFileSync(path, "utf8").trim());
    let alive = false;
    try {
      alive = pid > 0 && pid !== process.pid && process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (alive) throw new ConfigError(`another cairn server (pid ${pid}) is serving ${dataDir}`);
  }
  writeFileSync(path, String(process.pid));
  return () => {
    if (existsSync(path) && readFileSync(path, "utf8").trim() === String(process.pid)) unlinkSync(path);
  };
}

export async function startServer(config: Config, say: (line: string) => void = console.log): Promise<RunningServer> {
  const startedAt = performance.now();
  const { app, services } = createApp({ config });
  const releaseLock = takePidLock(config.DATA_DIR);
  try {
    // Only the one server of this data directory may clear upload leftovers (the CLI may run beside it).
    services.files.cleanStore();
    const credentials = await ensureAdministrator(services);
    if (credentials) say(`Created administrator admin@localhost; its password and API token are in ${credentials}`);
    let tls: { cert: string; key: string } | undefined;
    if (!config.HTTP) {
      tls = config.TLS_CERT ? readTls(config) : await ensureSelfSignedCertificate(config.DATA_DIR, config.APP_ALLOWED_HOSTS);
    }
    app.listen({
      hostname: config.HOST,
      port: config.PORT,
      tls,
      // JSON bodies are limited by MAX_CONTENT_LENGTH as they are read; file uploads stream, so
      // Bun's own limit only has to let the largest allowed file through.
      maxRequestBodySize: Math.max(config.MAX_CONTENT_LENGTH, config.RDM_FILES_DEFAULT_MAX_FILE_SIZE) + 1024 * 1024,
    });
    services.worker.start();
    // An index that does not hold every record (a crash or an old interrupted reindex) searches and
    // harvests silently short: say so and rebuild it in the background.
    const index = services.records.checkIndex();
    if (!index.complete) {
      say(`WARNING: the search index holds ${index.indexedRecords} of ${index.records} records and ${index.indexedDrafts} of ${index.drafts} drafts: rebuilding it in the background (searches and OAI-PMH are incomplete until then).`);
      services.jobs.enqueue(REINDEX_JOB);
    }
    // Checkpoints off the request thread: only the long-running server needs them (see db/checkpointer).
    const checkpointer = startCheckpointer(services.deps.db, services.deps.db.$client.filename, services.log);
    const port = app.server!.port!;
    say(`Cairn serving ${config.BASE_URL} (listening on ${tls ? "https" : "http"}://${config.HOST}:${port}, data in ${config.DATA_DIR}) after ${Math.round(performance.now() - startedAt)} ms`);
    let stopped: Promise<void> | null = null;
    return {
      url: config.BASE_URL,
      port,
      stop: () =>
        (stopped ??= (async () => {
          await app.stop(false); // finish in-flight requests, refuse new ones
          await services.worker.stop();
          await checkpointer.stop();
          services.close();
          releaseLock();
        })()),
    };
  } catch (err) {
    services.close();
    releaseLock();
    throw err;
  }
}
