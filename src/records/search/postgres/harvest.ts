// Published records for OAI-PMH harvesting on PostgreSQL: the statements of ../harvest.ts, through
// the database port, with set query strings compiled to tsquery and SQL.
import type { Db } from "../../../db/port";
import type { RecordRow } from "../../store";
import * as sql from "../harvest";
import type { HarvestFilter, HarvestHit, HarvestKey } from "../index";
import { patternsNode } from "../patterns";
import { RECORD_SEARCH_SCHEMA } from "../schema";
import { rowOf } from "../document";
import { compileQuery, expandRecordQuery } from "./schema";

/** One condition for several patterns; an empty pattern selects everything. */
async function patternsSql(db: Db, patterns: string[] | undefined): Promise<sql.Sql> {
  const node = patternsNode(patterns);
  if (node === "all") return { where: "1 = 1", params: [] };
  if (node === "none") return { where: "0 = 1", params: [] };
  const compiled = compileQuery(await expandRecordQuery(db, node), RECORD_SEARCH_SCHEMA);
  return { where: compiled.where, params: compiled.params };
}

export const listHarvestable = async (db: Db, filter: HarvestFilter, after: HarvestKey | null, limit: number): Promise<HarvestHit[]> => {
  const s = sql.listHarvestableSql(filter, await patternsSql(db, filter.patterns), after, limit);
  return db.statements.all<HarvestHit>(s.sql, s.params);
};

export const countHarvestable = async (db: Db, filter: HarvestFilter): Promise<number> => {
  const s = sql.countHarvestableSql(filter, await patternsSql(db, filter.patterns));
  return (await db.statements.get<{ n: number }>(s.sql, s.params))?.n ?? 0;
};

export async function selectedRecordIds(db: Db, ids: string[], patterns: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const s = sql.selectedRecordIdsSql(ids, await patternsSql(db, patterns));
  return new Set((await db.statements.all<{ id: string }>(s.sql, s.params)).map((r) => r.id));
}

export const earliestHarvestable = async (db: Db): Promise<number | null> =>
  (await db.statements.get<{ t: number | null }>(sql.EARLIEST_HARVESTABLE.sql, sql.EARLIEST_HARVESTABLE.params))?.t ?? null;

export const indexedAccess = async (db: Db, id: string): Promise<string | null> => {
  const s = sql.indexedAccessSql(id);
  return (await db.statements.get<{ a: string }>(s.sql, s.params))?.a ?? null;
};

export async function findPublicRecords(db: Db, ids: string[]): Promise<RecordRow[]> {
  if (ids.length === 0) return [];
  const s = sql.findPublicRecordsSql(ids);
  const byId = new Map((await db.statements.all<Record<string, any>>(s.sql, s.params)).map((raw) => [raw.id as string, rowOf(raw)]));
  return ids.map((id) => byId.get(id)).filter((row): row is RecordRow => row !== undefined);
}
