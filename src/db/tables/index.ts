// Every drizzle table; drizzle-kit reads this file to generate migrations.
//
// Dialect-specific, for every table (each table file lists its own queries beyond these; the
// PostgreSQL twin of these declarations is the next issue's): `integer` times in ms -> bigint;
// `integer(…, { mode: "boolean" })` -> boolean, so hand-written SQL comparing them to 0/1 becomes
// false/true; `text(…, { mode: "json" })` -> jsonb (json where the stored text must come back
// unchanged: jsonb reorders keys); `autoIncrement` -> `generated always as identity`; `?` and `?1`
// placeholders of hand-written SQL -> `$1`; db/sqlite/rows.ts (selectRows/findRow/insertRow/
// shapeRow) converts booleans and JSON by hand, which a PostgreSQL driver does itself; `.changes`
// (changesOf) -> the command's row count. Text compares and sorts bytewise (BINARY) on SQLite:
// declare text columns `COLLATE "C"` so orders stay the ones JS merges and sorts rely on (sortRows,
// OAI listing). `lower()` folds ASCII only on SQLite, every letter on PostgreSQL: lower() lookups
// and the lower() unique indexes match more there. Portable as written: onConflictDoNothing/
// onConflictDoUpdate and `ON CONFLICT … excluded`, `.returning()`/RETURNING, CASE WHEN, `||`,
// coalesce, row-value comparisons, UPDATE … FROM.
export * from "./jobs";
export * from "./records";
export * from "./users";
export * from "./vocabularies";
export * from "./record-index";
export * from "./files";
export * from "./stats";
export * from "./oai";
export * from "./communities";
export * from "./requests";
export * from "./mail";
export * from "./access";
export * from "./sessions";
export * from "./accounts";
export * from "./audit";
export * from "./rate-limits";
