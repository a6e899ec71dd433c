// Browser sign-in: a session per signed-in browser, found by the hash of its cookie's secret.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { usersTable } from "./users";

export const sessionsTable = sqliteTable(
  "sessions",
  {
    /** sha256 of the cookie's secret (hex). */
    tokenHash: text("token_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => usersTable.id, { onDelete: "cascade" }),
    /** The session's CSRF token: forms carry it, cookie-authenticated API writes send it as X-CSRF-Token. */
    csrfToken: text("csrf_token").notNull(),
    created: integer("created").notNull(),
    lastSeen: integer("last_seen").notNull(),
    /** When the session ends unless used again (idle limit), never past `created` + the absolute limit. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expiry_idx").on(t.expiresAt)],
);
