// OAI-PMH's resumption-token keys (src/oai/store.ts tokenKeys): made once by the first harvest, then
// only read, so on PostgreSQL (where reads never wait for writes) a harvest does not queue behind a
// long write such as the statistics' aggregation.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createPostgresPort } from "../../src/db/postgres/port";
import type { DatabasePort } from "../../src/db/port";
import { tokenKeys } from "../../src/oai/store";
import { freshPostgresDatabase, type TestDatabase } from "../helpers/postgres";

let database: TestDatabase;
let db: DatabasePort;
beforeAll(async () => {
  database = await freshPostgresDatabase();
  db = createPostgresPort(database.url);
  await db.ready();
});
afterAll(async () => {
  db.close();
  await database.drop();
});

test("the first call makes one key, two at once too; later calls read it while a write holds the lock", async () => {
  let n = 0;
  const secret = () => `secret-${++n}`;
  expect(await Promise.all([tokenKeys(db, secret, 1), tokenKeys(db, secret, 1)])).toEqual([["secret-1"], ["secret-1"]]);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const writing = db.write(async (tx) => {
    await tx.statements.run("UPDATE oai_token_keys SET created = created");
    await held;
  });
  const read = await Promise.race([tokenKeys(db, secret, 2), Bun.sleep(2000).then(() => "waited for the write")]);
  release();
  await writing;
  expect(read).toEqual(["secret-1"]);
});
