// Migration 0021_community_access on a database made before it: communities keep how their
// record_policy treated submissions (open: every member's records without review) and list their
// members publicly, as before.
import { expect, test } from "bun:test";
import { openSqlite } from "../../src/db/sqlite/connection";
import { migrate } from "../../src/db/sqlite/migrate";
import { migrations } from "../../src/db/sqlite/migrations/manifest";

const ID = "0021_community_access";

test("existing communities get review_policy from their record_policy and members_visibility public", () => {
  const sqlite = openSqlite(":memory:");
  // The database as the release before this migration left it.
  sqlite.exec("CREATE TABLE schema_migrations (id TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)");
  for (const m of migrations.slice(
    0,
    migrations.findIndex((m) => m.id === ID),
  )) {
    for (const statement of m.sql.split("--> statement-breakpoint")) if (statement.trim()) sqlite.exec(statement);
    sqlite.query("INSERT INTO schema_migrations (id, applied_at) VALUES (?, 1)").run(m.id);
  }
  const insert = sqlite.query(
    "INSERT INTO communities (id, slug, visibility, member_policy, record_policy, metadata, created, updated) VALUES (?, ?, 'public', 'open', ?, '{}', 1, 1)",
  );
  insert.run("a", "open-one", "open");
  insert.run("b", "closed-one", "closed");

  // This one first, then any later ones.
  expect(migrate(sqlite, 2)[0]).toBe(ID);
  const rows = sqlite.query("SELECT id, record_policy, members_visibility, review_policy FROM communities ORDER BY id").all();
  expect(rows).toEqual([
    { id: "a", record_policy: "open", members_visibility: "public", review_policy: "members" },
    { id: "b", record_policy: "closed", members_visibility: "public", review_policy: "closed" },
  ]);
});
