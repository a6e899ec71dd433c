// The administrators' audit log: one row per administrative action, whichever way it came (the
// pages, the REST API, the CLI). Portable: plain columns, details as JSON text (jsonb later).
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const auditLogTable = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    /** The administrator's account; null for the system (the CLI run on the server, a job). */
    actorId: integer("actor_id"),
    /** Who, as shown (the administrator's e-mail at the time, or "cli"/"system"): kept when the account is gone. */
    actorLabel: text("actor_label").notNull(),
    /** What, as a dotted name: `user.block`, `user.promote`, `mail.resend`, `job.retry`… */
    action: text("action").notNull(),
    /** On what: `user`, `record`, `community`, `job`, `mail`, `vocabulary`, `oai-set`… */
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    /** Anything else worth keeping (a reason, a quota, the old and new value), JSON. */
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** The client's address (APP_TRUSTED_PROXIES decides who the client is); null from the CLI. */
    address: text("address"),
    /** `web`, `api` or `cli`. */
    via: text("via").notNull(),
  },
  (t) => [index("audit_log_at_idx").on(t.at), index("audit_log_target_idx").on(t.targetType, t.targetId), index("audit_log_actor_idx").on(t.actorId)],
);
