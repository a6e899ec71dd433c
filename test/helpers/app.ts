// A Cairn app on a fresh temporary data directory, with ready users and tokens, called in-process.
import { expect } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { loadConfig, type ConfigKey } from "../../src/config";
import { systemActor } from "../../src/core/actor";
import { ManualClock } from "../../src/core/time";
import { freshPostgresDatabase, onPostgres, type TestDatabase } from "./postgres";

export const BASE_URL = "http://127.0.0.1:5000";

export type Who = "anonymous" | "admin" | "alice" | "bob";

export interface CallOptions {
  as?: Who;
  /** A token to send instead of a user's. */
  token?: string;
  body?: unknown;
  /** Sent as-is (no JSON encoding), e.g. malformed JSON or raw bytes. */
  rawBody?: string | Uint8Array | ReadableStream;
  headers?: Record<string, string>;
}

export async function createTestApp(overrides: Partial<Record<ConfigKey, unknown>> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "cairn-test-"));
  // On the PostgreSQL run of the suite, every app has a database of its own (helpers/postgres.ts).
  const database = onPostgres() && overrides.DATABASE_URL === undefined ? await freshPostgresDatabase() : null;
  try {
    return await startTestApp(dataDir, database, overrides);
  } catch (error) {
    // A refused configuration (tests check the refusals) leaves neither its directory nor its database behind.
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function startTestApp(dataDir: string, database: TestDatabase | null, overrides: Partial<Record<ConfigKey, unknown>>) {
  // Written into the data directory's config file, as an installation would keep it: a second app,
  // a server or a CLI process on the same data directory then opens the same database.
  if (database) writeFileSync(join(dataDir, "cairn.toml"), `DATABASE_URL = ${JSON.stringify(database.url)}\n`);
  const config = loadConfig({ flags: { DATA_DIR: dataDir, HTTP: true, BASE_URL, ...(database ? { DATABASE_URL: database.url } : {}), ...overrides }, env: {} });
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 12, 0, 0));
  const logs: string[] = [];
  // CAIRN_TEST_LOGS=1 prints the app's log as it comes, for debugging (tests that read `logs` then find it empty).
  const { app, services, directRoutes } = createApp({ config, clock, log: (m) => (process.env.CAIRN_TEST_LOGS ? console.error(m) : logs.push(m)) });
  // As `serve` does: on PostgreSQL a read does not wait behind the shipped vocabularies' load
  // (SQLite's port holds every statement until that transaction ends).
  await services.ready;

  const makeUser = async (name: string, admin = false) => {
    const user = await services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, password: `${name}-password`, admin });
    const { secret } = await services.tokens.createToken(systemActor, { userId: user.id, name: `${name}-token` });
    return { user, token: secret };
  };
  const users = { admin: await makeUser("admin", true), alice: await makeUser("alice"), bob: await makeUser("bob") };

  async function call(method: string, path: string, options: CallOptions = {}) {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token ?? (options.as && options.as !== "anonymous" ? users[options.as].token : undefined);
    if (token !== undefined && !("authorization" in headers)) headers.authorization = `Bearer ${token}`;
    let body: string | Uint8Array | ReadableStream | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await app.handle(new Request(BASE_URL + path, { method, headers, body }));
    const text = await response.text();
    let json: any = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  return {
    app,
    /** The routes the server hands straight from Bun's router (app.ts); tests call them as the router would. */
    directRoutes,
    services,
    config,
    clock,
    logs,
    users,
    dataDir,
    call,
    /** Closes the services (buffered statistics written, workers and the database closed), then removes the data. */
    async close() {
      await services.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** What helpers call through: a TestApp (callers `Who`) or an app with more callers (helpers/communities.ts's roles). */
export interface Caller<As extends string = Who> {
  call(method: string, path: string, options?: Omit<CallOptions, "as"> & { as?: As }): Promise<{ status: number; headers: Headers; text: string; json: any }>;
}

/** Expects `res` (an answer of TestApp.call) to have `status`, with the body beside it so that a failure shows the API's message. */
export function expectStatus(res: { status: number; json: unknown }, status: number) {
  expect({ status: res.status, body: res.json }).toMatchObject({ status });
}
