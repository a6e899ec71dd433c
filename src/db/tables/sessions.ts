// Browser sign-in: a session per signed-in browser, found by the hash of its cookie's secret, and the counts that slow password guessing.
// Dialect-specific: none (sessions/store.ts is drizzle only; upsertThrottle's onConflictDoUpdate
// is portable; findAccount's lower() lookups are the users table's, see users.ts).
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

/**
 * Sign-in attempts counted per login name and per client address (sessions/throttle.ts), kept in
 * the database so that every server process counts the same guesses.
 */
export const signInThrottlesTable = sqliteTable(
  "sign_in_throttles",
  {
    /** sha256 (hex) of `login:<name, lower-cased>` or `address:<client address>`: people type passwords into the name field. */
    key: text("key").primaryKey(),
    /** Attempts counted (each before its password is checked; a success takes its own back). */
    failures: integer("failures").notNull(),
    /** The last counted attempt: a count left alone for an hour starts again. */
    lastAttempt: integer("last_attempt").notNull(),
    /** No password is checked for this key before then. */
    waitUntil: integer("wait_until"),
  },
  (t) => [index("sign_in_throttles_last_attempt_idx").on(t.lastAttempt)],
);

/** Each successful sign-in (the user's sign-in history on the administration's user page). */
export const signInsTable = sqliteTable(
  "sign_ins",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => usersTable.id, { onDelete: "cascade" }),
    at: integer("at").notNull(),
    /** How: `password`, `ldap`, an OpenID Connect provider's name, `saml:{name}`. */
    method: text("method").notNull(),
    /** The client's address (APP_TRUSTED_PROXIES applied) and browser, when known. */
    address: text("address"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sign_ins_user_idx").on(t.userId, t.at)],
);
