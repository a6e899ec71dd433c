// What people use to prove and keep their accounts: one-use links sent by mail (e-mail
// confirmation, password reset, a new e-mail address), stored by the hash of their secret; the
// external identities (OpenID Connect subjects) that sign accounts in, and sign-ins under way.
// Dialect-specific: none (accounts/store.ts is drizzle only; useToken's conditional UPDATE … RETURNING is portable).
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { usersTable } from "./users";

export const accountTokensTable = sqliteTable(
  "account_tokens",
  {
    /** sha256 (hex) of the link's secret: the secret is only in the mail. */
    tokenHash: text("token_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => usersTable.id, { onDelete: "cascade" }),
    /** `confirm-email`, `reset-password` or `change-email` (accounts/model.ts TOKEN_PURPOSES). */
    purpose: text("purpose").notNull(),
    /** The address the link was sent to: the account's, or the new one it confirms. */
    email: text("email").notNull(),
    created: integer("created").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** Set when the link is used: it works once. */
    usedAt: integer("used_at"),
  },
  (t) => [index("account_tokens_user_idx").on(t.userId), index("account_tokens_expiry_idx").on(t.expiresAt)],
);

/**
 * The external identities that sign an account in: a provider's subject (`sub`) belongs to one
 * account, for good (an e-mail address can change hands at the provider; the subject cannot).
 */
export const signInIdentitiesTable = sqliteTable(
  "sign_in_identities",
  {
    /** The provider's name in OIDC_PROVIDERS. */
    provider: text("provider").notNull(),
    /** The ID token's `sub`. */
    subject: text("subject").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => usersTable.id, { onDelete: "cascade" }),
    /** The address the provider gave at the last sign-in (shown on linked accounts; never used to find the account). */
    email: text("email"),
    created: integer("created").notNull(),
    lastSignIn: integer("last_sign_in").notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.subject] }), index("sign_in_identities_user_idx").on(t.userId)],
);

/**
 * Sign-ins sent to a provider and not back yet: found by the hash of their `state`, taken once,
 * ten minutes at most. The PKCE verifier and nonce stay here, never in the browser.
 */
export const pendingSignInsTable = sqliteTable(
  "pending_sign_ins",
  {
    /** sha256 (hex) of the `state` parameter. */
    stateHash: text("state_hash").primaryKey(),
    provider: text("provider").notNull(),
    /** sha256 (hex) of the browser-binding cookie's secret: the browser that started the sign-in finishes it. */
    browserHash: text("browser_hash").notNull(),
    nonce: text("nonce").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    /** This site's path to land on afterwards. */
    next: text("next").notNull(),
    created: integer("created").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /**
     * Set when a signed-in person started the sign-in to link the provider to their account: the
     * identity is linked to this user, and only while this user is still the one signed in.
     */
    linkUserId: integer("link_user_id").references(() => usersTable.id, { onDelete: "cascade" }),
  },
  (t) => [index("pending_sign_ins_expiry_idx").on(t.expiresAt)],
);

/**
 * A provider's identity proved but not yet given an account. `sign-up`: a first sign-in whose
 * address is not believed (ORCID gives none and the person is asked for one; an untrusted provider's
 * is mailed at once): the account is made (or the identity linked) only when the link mailed to it
 * is opened in this browser. `link`: the provider's address is an existing account's, which the
 * person must sign in to with its password, in this browser, for the identity to be linked to it.
 */
export const externalSignUpsTable = sqliteTable(
  "external_sign_ups",
  {
    /** sha256 (hex) of the secret of the cookie that carries the sign-up in the browser that came back from the provider. */
    ticketHash: text("ticket_hash").primaryKey(),
    /** sha256 (hex) of the mailed link's secret, once an address was given. */
    mailHash: text("mail_hash").unique(),
    provider: text("provider").notNull(),
    subject: text("subject").notNull(),
    fullName: text("full_name").notNull(),
    /** The ORCID iD the provider proved (its subject), for the new account's profile. */
    orcid: text("orcid"),
    email: text("email"),
    next: text("next").notNull(),
    created: integer("created").notNull(),
    /** Half an hour to give an address (or to sign in to link); a day to open the mailed link. */
    expiresAt: integer("expires_at").notNull(),
    /** `sign-up` or `link` (see above). */
    purpose: text("purpose").notNull().default("sign-up"),
  },
  (t) => [index("external_sign_ups_expiry_idx").on(t.expiresAt)],
);

/**
 * SAML authentication requests sent to an IdP and not answered yet: a response's InResponseTo must
 * name one of these, sent to that IdP from the same browser; taken once, ten minutes at most.
 */
export const samlRequestsTable = sqliteTable(
  "saml_requests",
  {
    /** The AuthnRequest's ID (random, from Cairn). */
    requestId: text("request_id").primaryKey(),
    /** The IdP's name in SAML_IDPS. */
    idp: text("idp").notNull(),
    /** sha256 (hex) of the browser-binding cookie's secret. */
    browserHash: text("browser_hash").notNull(),
    /** This site's path to land on afterwards. */
    next: text("next").notNull(),
    /** Set when a signed-in person links this IdP to their account (linked accounts): the account the identity goes to. */
    linkUserId: integer("link_user_id").references(() => usersTable.id, { onDelete: "cascade" }),
    created: integer("created").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("saml_requests_expiry_idx").on(t.expiresAt)],
);

/** Assertion IDs accepted from each IdP, kept until the assertion expires: a replayed one is refused. */
export const samlAssertionsSeenTable = sqliteTable(
  "saml_assertions_seen",
  {
    idp: text("idp").notNull(),
    assertionId: text("assertion_id").notNull(),
    /** The assertion's NotOnOrAfter (plus the allowed skew): after it the assertion is refused as expired anyway. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.idp, t.assertionId] }), index("saml_assertions_seen_expiry_idx").on(t.expiresAt)],
);
