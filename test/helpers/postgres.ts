// PostgreSQL databases for the tests: each one new, copied from a migrated template
// (`CREATE DATABASE … TEMPLATE`, a file copy: ~50 ms instead of migrating each time).
//
// The server: CAIRN_TEST_POSTGRES (a superuser's URL; scripts/with-postgres.ts sets it when it runs
// the suite on PostgreSQL), else a throw-away cluster this process starts on first use (for the
// tests that compare the two engines during the SQLite run). With CAIRN_TEST_POSTGRES set, every
// createTestApp runs on a fresh database of it (test/helpers/app.ts).
import postgres from "postgres";
import { createPostgresPort } from "../../src/db/postgres/port";
import { startPostgresCluster, type PostgresCluster } from "./postgres-cluster";

const TEMPLATE = "cairn_template";

/** The suite runs on PostgreSQL: every test app gets a fresh database there. */
export const onPostgres = (): boolean => Boolean(process.env.CAIRN_TEST_POSTGRES);

let server: Promise<{ urlOf: (database: string) => string; admin: postgres.Sql }> | null = null;
let cluster: PostgresCluster | null = null;

function connect() {
  return (server ??= (async () => {
    let urlOf: (database: string) => string;
    const given = process.env.CAIRN_TEST_POSTGRES;
    if (given) {
      urlOf = (database) => {
        const u = new URL(given);
        u.pathname = `/${database}`;
        return u.toString();
      };
    } else {
      cluster = await startPostgresCluster();
      urlOf = cluster.urlOf;
    }
    const admin = postgres(urlOf("postgres"), { max: 2, onnotice: () => {} });
    // The template, migrated once per server: several test processes may race to make it.
    const exists = await admin`SELECT 1 FROM pg_database WHERE datname = ${TEMPLATE}`;
    if (exists.length === 0) {
      const building = `${TEMPLATE}_${process.pid}`;
      await admin.unsafe(`CREATE DATABASE ${building}`);
      const port = createPostgresPort(urlOf(building), { migrateAt: 0 });
      await port.ready();
      port.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      try {
        await admin.unsafe(`ALTER DATABASE ${building} RENAME TO ${TEMPLATE}`);
      } catch {
        // Another process made it first: keep theirs.
        await admin.unsafe(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      }
    }
    return { urlOf, admin };
  })());
}

let counter = 0;

export interface TestDatabase {
  url: string;
  /** Drops the database (its connections are ended first). */
  drop(): Promise<void>;
}

/** A new database with Cairn's schema, on the test server. */
export async function freshPostgresDatabase(): Promise<TestDatabase> {
  const { urlOf, admin } = await connect();
  const name = `cairn_t${process.pid}_${++counter}`;
  await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
  return { url: urlOf(name), drop: async () => void (await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

/** A new empty database (no schema), for the copy and restore commands' targets. */
export async function emptyPostgresDatabase(): Promise<TestDatabase> {
  const { urlOf, admin } = await connect();
  const name = `cairn_e${process.pid}_${++counter}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  return { url: urlOf(name), drop: async () => void (await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

/** PostgreSQL's own measure of a database's size, through a client of this helper's own. */
export async function postgresDatabaseSize(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return Number((await sql`SELECT pg_database_size(current_database()) AS n`)[0]!.n);
  } finally {
    await sql.end();
  }
}
