// The mail outbox: every notification is a row written after the change it reports has
// committed; the `mail-send` job delivers it over SMTP when MAIL_SERVER is set.
// Dialect-specific: none (mail/store.ts listDueMail shifts a BIGINT by an INTEGER cast: PostgreSQL has no `integer << bigint`).
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const mailOutboxTable = sqliteTable(
  "mail_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    /** What it is about, e.g. `request:<uuid>`: lets tests and administrators find a message. */
    topic: text("topic").notNull().default(""),
    created: integer("created").notNull(),
    /** When SMTP accepted it; null while it waits (or when no SMTP server is configured). */
    sentAt: integer("sent_at"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
  },
  (t) => [index("mail_outbox_pending_idx").on(t.sentAt, t.id), index("mail_outbox_topic_idx").on(t.topic)],
);
