// Queries on the requests and request_events tables, and rows -> the view types see.
import { and, asc, desc, eq, inArray, isNotNull, lte, ne, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { matchAllWords, queryWords } from "../core/word-match";
import { first, type Db } from "../db/port";
import { selectRows, sortRows } from "../db/rows";
import { requestEventsTable, requestsTable } from "../db/tables";
import type { ListFilters } from "./model";
import type { EntityKind, EntityRef, RequestStatus, RequestView } from "./request-type";

export type RequestRow = typeof requestsTable.$inferSelect;
export type NewRequestRow = typeof requestsTable.$inferInsert;
export type EventRow = typeof requestEventsTable.$inferSelect;

const refIs = (kind: SQLiteColumn, id: SQLiteColumn, ref: EntityRef) => and(eq(kind, ref.kind), eq(id, ref.id));

const ref = (kind: string, id: string): EntityRef => ({ kind: kind as EntityKind, id });

export function viewOf(row: RequestRow): RequestView {
  return {
    id: row.id,
    number: String(row.number),
    type: row.type,
    title: row.title,
    description: row.description,
    status: row.status as RequestStatus,
    createdBy: ref(row.createdByKind, row.createdById),
    receiver: ref(row.receiverKind, row.receiverId),
    topic: row.topicKind && row.topicId ? ref(row.topicKind, row.topicId) : null,
    payload: row.payload,
    expiresAt: row.expiresAt,
    created: row.created,
    updated: row.updated,
  };
}

export const findRequest = async (db: Db, id: string): Promise<RequestRow | undefined> => first(db.select().from(requestsTable).where(eq(requestsTable.id, id)).limit(1));

/** The next human number; called inside the inserting transaction, so numbers never repeat. */
export async function nextNumber(db: Db): Promise<number> {
  const row = await first(
    db
      .select({ n: sql<number>`coalesce(max(${requestsTable.number}), 0)` })
      .from(requestsTable)
      .limit(1),
  );
  return (row?.n ?? 0) + 1;
}

export const insertRequest = async (db: Db, row: NewRequestRow): Promise<RequestRow> => (await first(db.insert(requestsTable).values(row).returning()))!;

/** Writes the changes with the next revision. */
export const updateRequest = async (db: Db, id: string, set: Partial<NewRequestRow>, updated: number): Promise<RequestRow> =>
  (await first(
    db
      .update(requestsTable)
      .set({ ...set, updated, revisionId: sql`${requestsTable.revisionId} + 1` })
      .where(eq(requestsTable.id, id))
      .returning(),
  ))!;

export const deleteRequest = async (db: Db, id: string): Promise<void> => {
  await db.delete(requestsTable).where(eq(requestsTable.id, id));
};

export async function searchRequests(db: Db, where: SQL | undefined, orderBy: SQL[], limit: number, offset: number) {
  const counted = await first(
    db
      .select({ n: sql<number>`count(*)` })
      .from(requestsTable)
      .where(where)
      .limit(1),
  );
  const total = counted?.n ?? 0;
  const rows =
    total === 0
      ? []
      : await db
          .select()
          .from(requestsTable)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset);
  return { rows, total };
}

/** How many requests match (a badge's number). */
export async function countRequests(db: Db, where: SQL): Promise<number> {
  const counted = await first(
    db
      .select({ n: sql<number>`count(*)` })
      .from(requestsTable)
      .where(where)
      .limit(1),
  );
  return counted?.n ?? 0;
}

/** Matching requests counted by the values of one column (a facet), most first. */
export async function countByColumn(db: Db, where: SQL | undefined, name: "type" | "status") {
  const column = requestsTable[name];
  return await db
    .select({ key: sql<string>`${column}`, n: sql<number>`count(*)` })
    .from(requestsTable)
    .where(where)
    .groupBy(column)
    .orderBy(desc(sql`count(*)`), asc(column));
}

/** Requests this party receives (a community's inbox). */
export const receivedBy = (ref: EntityRef): SQL => refIs(requestsTable.receiverKind, requestsTable.receiverId, ref)!;

/** Requests about this topic (a record's requests). */
export const about = (ref: EntityRef): SQL => refIs(requestsTable.topicKind, requestsTable.topicId, ref)!;

/** A listing's conditions beside the facets: the policy's filter, words in title or description, openness, parties, topic. */
export function listingWhere(filter: SQL, f: ListFilters): SQL {
  const t = requestsTable;
  return and(
    filter,
    matchAllWords(queryWords(f.q), [sql`${t.title}`, sql`${t.description}`]),
    f.isOpen === null ? undefined : f.isOpen ? eq(t.status, "submitted") : ne(t.status, "submitted"),
    f.createdBy ? refIs(t.createdByKind, t.createdById, f.createdBy) : undefined,
    f.receiver ? refIs(t.receiverKind, t.receiverId, f.receiver) : undefined,
    f.topic ? refIs(t.topicKind, t.topicId, f.topic) : undefined,
  )!;
}

/** The facet selections on top (values of one facet OR-ed, facets AND-ed). */
export const facetWhere = (where: SQL, f: ListFilters): SQL =>
  and(where, f.types.length ? inArray(requestsTable.type, f.types) : undefined, f.statuses.length ? inArray(requestsTable.status, f.statuses) : undefined)!;

/** `newest` (default), `oldest`, or `bestmatch`: without a ranking index, requests whose title holds every word first, then the newest. */
export function listingOrder(sort: string, q: string | undefined): SQL[] {
  const t = requestsTable;
  if (sort === "oldest") return [asc(t.created), asc(t.number)];
  if (sort === "bestmatch") {
    const inTitle = matchAllWords(queryWords(q), [sql`${t.title}`]) ?? sql`0`;
    return [desc(sql`(${inTitle})`), desc(t.created), desc(t.number)];
  }
  return [desc(t.created), desc(t.number)];
}

/** What other modules look requests up by. */
export interface RequestLookup {
  type?: string;
  createdBy?: EntityRef;
  receiver?: EntityRef;
  topic?: EntityRef;
  /** Only open (submitted) requests. */
  openOnly?: boolean;
}

/** The lookup as SQL conditions (fixed fragments, one statement per shape) and their parameters. */
function lookupWhere(lookup: RequestLookup): [string, string[]] {
  const conditions: string[] = [];
  const params: string[] = [];
  const party = (column: string, ref: EntityRef | undefined) => {
    if (!ref) return;
    conditions.push(`${column}_kind = ? AND ${column}_id = ?`);
    params.push(ref.kind, ref.id);
  };
  if (lookup.type) {
    conditions.push("type = ?");
    params.push(lookup.type);
  }
  if (lookup.openOnly) conditions.push("status = 'submitted'");
  party("created_by", lookup.createdBy);
  party("receiver", lookup.receiver);
  party("topic", lookup.topic);
  return [conditions.length ? conditions.join(" AND ") : "1", params];
}

/** Requests by type, party or topic, oldest first (e.g. a community's invitations). */
export async function listRequestsBy(db: Db, lookup: RequestLookup, limit: number): Promise<RequestRow[]> {
  const [where, params] = lookupWhere(lookup);
  // A topic (a record, a draft) has a handful of requests: ordered here, on every publish's path.
  if (lookup.topic) return sortRows(await selectRows(db, requestsTable, where, params), "created", "number").slice(0, limit);
  return selectRows(db, requestsTable, where, [...params, limit], "ORDER BY created, number LIMIT ?");
}

/** The newest request matching the lookup (highest number), or null. */
export async function findLatestRequest(db: Db, lookup: RequestLookup): Promise<RequestRow | null> {
  const [where, params] = lookupWhere({ type: lookup.type, topic: lookup.topic, createdBy: lookup.createdBy });
  if (lookup.topic) return sortRows(await selectRows(db, requestsTable, where, params), "number").pop() ?? null;
  return (await selectRows(db, requestsTable, where, params, "ORDER BY number DESC LIMIT 1"))[0] ?? null;
}

/** Open requests whose expiry has passed. */
export const listOverdue = async (db: Db, now: number, limit: number) =>
  await db
    .select()
    .from(requestsTable)
    .where(and(eq(requestsTable.status, "submitted"), isNotNull(requestsTable.expiresAt), lte(requestsTable.expiresAt, now)))
    .orderBy(asc(requestsTable.expiresAt))
    .limit(limit);

/** Drafts and open requests a community takes part in (as creator, receiver or topic). */
export async function listUnfinishedOfCommunity(db: Db, communityId: string) {
  const t = requestsTable;
  const c = { kind: "community" as const, id: communityId };
  return await db
    .select()
    .from(t)
    .where(
      and(inArray(t.status, ["created", "submitted"]), or(refIs(t.createdByKind, t.createdById, c), refIs(t.receiverKind, t.receiverId, c), refIs(t.topicKind, t.topicId, c))),
    );
}

/** Drafts and open requests a user created. */
export async function listUnfinishedOfCreator(db: Db, userId: number) {
  const t = requestsTable;
  return await db
    .select()
    .from(t)
    .where(and(inArray(t.status, ["created", "submitted"]), refIs(t.createdByKind, t.createdById, { kind: "user", id: String(userId) })));
}

/** Writes an event, numbered after its request's earlier ones (inside the write transaction, which writers take one at a time). */
export const insertEvent = async (db: Db, row: typeof requestEventsTable.$inferInsert) =>
  (await first(
    db
      .insert(requestEventsTable)
      .values({ ...row, seq: sql`(SELECT coalesce(max(e.seq), 0) + 1 FROM request_events e WHERE e.request_id = ${row.requestId})` })
      .returning(),
  ))!;

export const findEvent = async (db: Db, requestId: string, eventId: string) =>
  first(
    db
      .select()
      .from(requestEventsTable)
      .where(and(eq(requestEventsTable.requestId, requestId), eq(requestEventsTable.id, eventId)))
      .limit(1),
  );

export const updateEvent = async (db: Db, id: string, set: Partial<typeof requestEventsTable.$inferInsert>, updated: number): Promise<EventRow> =>
  (await first(
    db
      .update(requestEventsTable)
      .set({ ...set, updated, revisionId: sql`${requestEventsTable.revisionId} + 1` })
      .where(eq(requestEventsTable.id, id))
      .returning(),
  ))!;

/** A request's events in time order; `seq` breaks ties, so events of one instant keep the order they were written in. */
export async function listEvents(db: Db, requestId: string, newestFirst: boolean, limit: number, offset: number) {
  const where = eq(requestEventsTable.requestId, requestId);
  const counted = await first(
    db
      .select({ n: sql<number>`count(*)` })
      .from(requestEventsTable)
      .where(where)
      .limit(1),
  );
  const total = counted?.n ?? 0;
  const dir = newestFirst ? desc : asc;
  const rows = await db.select().from(requestEventsTable).where(where).orderBy(dir(requestEventsTable.created), dir(requestEventsTable.seq)).limit(limit).offset(offset);
  return { rows, total };
}
