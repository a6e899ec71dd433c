// The generic requests engine (InvenioRDM's invenio-requests): requests between parties about a
// topic, and their timeline of comments and log events. Entity references (`{user: "3"}`,
// `{community: "<uuid>"}`, `{record: "<id>"}`, `{email: "..."}`, `{group: "..."}`) are kept as a
// kind and an id each, so listings filter on them in SQL.
// Dialect-specific: requests: requests/store.ts listingWhere and listingOrder (bestmatch) match
// words with GLOB (core/word-match.ts) -> `~` regex, the latter ordering by the match with a `0`
// fallback (-> false); nextNumber's `max(number) + 1` is safe under SQLite's single writer only ->
// a sequence on PostgreSQL; payload JSON text -> jsonb. request_events: listEvents breaks ties of
// `created` by `seq` (written in order by insertEvent: SQLite's rowid once did it, PostgreSQL has none); payload -> jsonb.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const requestsTable = sqliteTable(
  "requests",
  {
    /** UUID. */
    id: text("id").primaryKey(),
    /** The human number, 1, 2, 3... across all requests. */
    number: integer("number").notNull(),
    /** The request type's id, e.g. `community-invitation` (each module's request-types.ts). */
    type: text("type").notNull(),
    title: text("title").notNull().default(""),
    description: text("description").notNull().default(""),
    /** `created`, `submitted`, `accepted`, `declined`, `cancelled`, `expired`. */
    status: text("status").notNull(),
    createdByKind: text("created_by_kind").notNull(),
    createdById: text("created_by_id").notNull(),
    receiverKind: text("receiver_kind").notNull(),
    receiverId: text("receiver_id").notNull(),
    topicKind: text("topic_kind"),
    topicId: text("topic_id"),
    /** What the type keeps beside the common fields (e.g. the role an invitation offers). */
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    /** When an open request expires (ms); null: never. */
    expiresAt: integer("expires_at"),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
    revisionId: integer("revision_id").notNull().default(1),
  },
  (t) => [
    uniqueIndex("requests_number_unique").on(t.number),
    index("requests_created_by_idx").on(t.createdByKind, t.createdById),
    index("requests_receiver_idx").on(t.receiverKind, t.receiverId),
    index("requests_topic_idx").on(t.topicKind, t.topicId),
    index("requests_open_expiry_idx").on(t.status, t.expiresAt),
  ],
);

/** An event of a request's timeline: `C` a comment, `L` a log event (a transition, a deleted comment). */
export const requestEventsTable = sqliteTable(
  "request_events",
  {
    /** UUID. */
    id: text("id").primaryKey(),
    requestId: text("request_id")
      .notNull()
      .references(() => requestsTable.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    createdByKind: text("created_by_kind").notNull(),
    createdById: text("created_by_id").notNull(),
    /** `{content, format}` of a comment; `{event}` of a log event. */
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
    revisionId: integer("revision_id").notNull().default(1),
    /** Order of writing (requests/store.ts insertEvent): breaks ties of `created`, so events of one instant list in the order they were written. */
    seq: integer("seq").notNull().default(0),
  },
  (t) => [index("request_events_request_idx").on(t.requestId, t.created)],
);
