// Browser sign-in with local passwords: sessions behind an HttpOnly cookie, a CSRF token per
// session, and password guessing slowed per name and per address (throttle.ts). The cookie stands
// for the user to the pages and to the REST API alike (as in InvenioRDM), cookie-authenticated API
// writes carrying the CSRF token.
import { requireAdmin, type Actor } from "../core/actor";
import { createAddressResolver, type PeerInfo } from "../core/client-address";
import type { Deps } from "../core/deps";
import { badRequest, HttpError, notFound, validationError } from "../core/errors";
import { hashSecret, newSecret } from "../core/ids";
import type { Db } from "../db/port";
import { BLOCKED_MESSAGE, signInRefusal } from "../users/policy";
import * as store from "./store";
import { ACCOUNT_MAIL, createThrottle, createThrottleAddressOf } from "./throttle";

/** Sessions end after a week unused, and a month after sign-in whatever the use. */
const IDLE_MS = 7 * 86_400_000;
const ABSOLUTE_MS = 30 * 86_400_000;
/** Refreshing the idle expiry on every request would write on every page view: once a minute is enough. */
const TOUCH_MS = 60_000;
const MIN_PASSWORD_LENGTH = 8;
/**
 * What a login that matches no account is checked against, so that its answer takes as long as a
 * wrong password's (an argon2id hash, at Bun's default cost, of a random secret nobody kept).
 */
const DUMMY_HASH = "$argon2id$v=19$m=65536,t=2,p=1$ADqKz96Bt1l2N9DOjAnb+ta+rKbeajA3Fx6b3ddm0o4$5zLzZV75FvgnQUX/RFGhKAc4p/pZJdIg0vV0ccZHKD8";

/** Sign-ins kept per user (the administration's sign-in history): older ones are pruned as new ones come. */
const SIGN_INS_KEPT = 100;

/** Who signed in from where, for the sign-in history: the client's address (APP_TRUSTED_PROXIES applied) and browser. */
export interface SignInClient {
  address: string | null;
  userAgent: string | null;
}

/** How a session came to be: `password`, `ldap`, an OIDC provider's name, `saml:{name}`, `link`; and the client. */
export interface SignInSeen {
  method: string;
  client?: SignInClient;
}

/** What a session's cookie stands for. */
export interface SessionActor {
  actor: Actor & { kind: "user" };
  csrf: string;
}

export type SessionsService = ReturnType<typeof createSessionsService>;

export interface SessionsDeps extends Deps {
  /** The groups of a user (the tokens module's answer, as for a token). */
  groupIdsOf(userId: number): Promise<string[]>;
}

/**
 * A password directory tried when the login and password open no local account (LDAP): a session
 * of the account it proves, null when it does not know them. Set after the accounts module is made
 * (accounts/ depends on sessions/, not the other way).
 */
export type PasswordDirectory = (login: string, password: string, address: string | null, client?: SignInClient) => Promise<{ secret: string; userId: number } | null>;

export function createSessionsService(deps: SessionsDeps) {
  const { db, clock } = deps;
  const throttle = createThrottle(db, clock);
  const mailThrottle = createThrottle(db, clock, ACCOUNT_MAIL);
  const refused = () => badRequest("The e-mail address (or username) and password do not match an active account.");
  let directory: PasswordDirectory | null = null;
  /** The directory's session for a login no local password opened (counted by the same throttle), else the one refusal. */
  const viaDirectory = async (login: string, password: string, address: string | null, client?: SignInClient) => {
    const session = directory ? await directory(login, password, address, client) : null;
    if (!session) throw refused();
    await throttle.succeeded(login, address);
    return session;
  };
  /**
   * The one place every way in opens a session (password, directory, providers, IdPs, links), so
   * the sign-in history is written here once: a row per sign-in, the user's newest SIGN_INS_KEPT kept.
   */
  const openSession = async (userId: number, seen: SignInSeen): Promise<{ secret: string; csrf: string; userId: number }> => {
    const now = clock.now();
    const secret = newSecret();
    const csrf = newSecret();
    await db.write(async (tx) => {
      await store.insertSession(tx, { tokenHash: hashSecret(secret), userId, csrfToken: csrf, created: now, lastSeen: now, expiresAt: now + IDLE_MS });
      await store.insertSignIn(tx, { userId, at: now, method: seen.method, address: seen.client?.address ?? null, userAgent: seen.client?.userAgent?.slice(0, 500) ?? null });
      await store.pruneSignIns(tx, userId, SIGN_INS_KEPT);
    });
    return { secret, csrf, userId };
  };
  const clientAddressOf = createAddressResolver(deps.config.APP_TRUSTED_PROXIES);

  /** Sets the password (at least MIN_PASSWORD_LENGTH characters), ends the sessions but `keep`'s and lifts the name's wait. */
  async function replacePassword(user: store.UserRow, password: string, keep: string | null) {
    if (password.length < MIN_PASSWORD_LENGTH) throw validationError([{ field: "password", messages: [`A password has at least ${MIN_PASSWORD_LENGTH} characters.`] }]);
    const hash = await Bun.password.hash(password, "argon2id");
    await db.write(async (tx) => {
      await store.setPasswordHash(tx, user.id, hash, clock.now());
      await store.deleteUserSessions(tx, user.id, keep === null ? null : hashSecret(keep));
      await throttle.clearLogins([user.email, ...(user.username ? [user.username] : [])]);
    });
  }

  return {
    /**
     * Checks the password and opens a session: its cookie secret and CSRF token. A wrong or
     * unknown login is one message for both, and both are slowed alike (no account discovery):
     * while the name or the client `address` (throttleAddressOf; null: not counted by address)
     * must wait, 429 with Retry-After and no password is checked. A login and password that open
     * no local account are tried in the directory (useDirectory), under the same count.
     */
    async signIn(login: string, password: string, address: string | null = null, client?: SignInClient): Promise<{ secret: string; userId: number }> {
      const refusal = await throttle.reserve(login, address);
      if (refusal) throw refusal;
      const user = login.trim() ? await store.findAccount(db, login.trim()) : null;
      const state = user ? signInRefusal(user, deps.config.ACCOUNTS_CONFIRM_EMAIL) : null;
      if (!user || state === "inactive" || !user.passwordHash) {
        // The same work as a real check, so timing does not tell whether the account exists.
        await Bun.password.verify(password, DUMMY_HASH);
        return viaDirectory(login, password, address, client);
      }
      if (!(await Bun.password.verify(password, user.passwordHash))) return viaDirectory(login, password, address, client);
      // ACCOUNTS_LOCAL_LOGIN_ENABLED off: passwords open administrators' sessions only (/login?local=1).
      // Anyone else's right password is answered as a wrong one, and counted as one: the form must
      // not tell a guesser which (perhaps reused) password is right when it opens nothing.
      if (!deps.config.ACCOUNTS_LOCAL_LOGIN_ENABLED && !user.isAdmin) return viaDirectory(login, password, address, client);
      if (state === "blocked") {
        // Only after the right password: a guesser learns nothing of the account's state.
        await throttle.succeeded(login, address);
        throw new HttpError(403, BLOCKED_MESSAGE, undefined, {}, { code: "blocked" });
      }
      if (state === "unconfirmed") {
        // The password was right: this is no guess, and saying so tells nothing to a stranger.
        await throttle.succeeded(login, address);
        throw new HttpError(403, "Confirm your e-mail address first: follow the link in the mail we sent to it, or ask for a new link.", undefined, {}, { code: "unconfirmed" });
      }
      // The throttle's and the session's writes join this transaction (the same asynchronous flow).
      return db.write(async (tx) => {
        // The password may have been set anew (its sessions ended) or the account closed while it
        // was being checked: the old password opens nothing.
        const current = await store.findUser(tx, user.id);
        if (!current || signInRefusal(current, false) !== null || current.passwordHash !== user.passwordHash) throw refused();
        await throttle.succeeded(login, address);
        return openSession(user.id, { method: "password", client: client ?? { address, userAgent: null } });
      });
    },

    /**
     * Counts a request that mails `email` (sign-up, password reset, a new link), per address and per
     * client; a 429 refusal while either must wait, else null.
     */
    reserveAccountMail: (email: string, address: string | null) => mailThrottle.reserve(email, address),

    /** The address a request's sign-in is counted by (APP_TRUSTED_PROXIES decides who the client is). */
    throttleAddressOf: createThrottleAddressOf(deps.config.APP_TRUSTED_PROXIES),

    /** A new session for a user whose identity was proved another way (a provider, the one-time sign-in link). */
    openSession,

    /** The client of a request as the sign-in history keeps it (its address as the trusted proxies vouch for it, its browser). */
    clientOf: (request: Request, server: PeerInfo | null): SignInClient => ({ address: clientAddressOf(request, server), userAgent: request.headers.get("user-agent") }),

    /** The user's latest sign-ins, newest first (administrators). */
    async listSignIns(actor: Actor, userId: number, limit = 20) {
      requireAdmin(actor);
      return store.listSignIns(db, userId, limit);
    },

    /** Sets the directory signIn tries after local passwords (app.ts, once the accounts module is made). */
    useDirectory(next: PasswordDirectory | null) {
      directory = next;
    },

    /** Ends every session of the user (an administrator blocked or deactivated the account); joins `tx`'s transaction. */
    endUserSessions: (userId: number, tx: Db = db) => store.deleteUserSessions(tx, userId, null),

    /** Ends the session (signing out); an unknown secret is fine. */
    async signOut(secret: string): Promise<void> {
      await store.deleteSession(db, hashSecret(secret));
    },

    /** The user and CSRF token of a live session, or null; keeps the session alive while used. */
    async resolve(secret: string): Promise<SessionActor | null> {
      const now = clock.now();
      const hash = hashSecret(secret);
      const session = await store.findLiveSession(db, hash, now);
      if (!session) return null;
      const user = await store.findUser(db, session.userId);
      // A blocked or deactivated account's sessions are ended when it happens; this also refuses any left.
      if (!user || signInRefusal(user, false) !== null) return null;
      if (now - session.lastSeen >= TOUCH_MS) await store.touchSession(db, hash, now, Math.min(now + IDLE_MS, session.created + ABSOLUTE_MS));
      return {
        actor: { kind: "user", userId: user.id, isAdmin: user.isAdmin, groupIds: await deps.groupIdsOf(user.id), scopes: [], tokenId: null },
        csrf: session.csrfToken,
      };
    },

    /** `cairn users set-password` (administrators, the system): a new password, the wait after failed sign-ins lifted, every session ended. */
    async setPassword(actor: Actor, login: string, password: string) {
      requireAdmin(actor);
      const user = await store.findAccount(db, login);
      if (!user) throw notFound(`No account '${login}'.`);
      if (password.length < MIN_PASSWORD_LENGTH) throw validationError([{ field: "password", messages: [`A password has at least ${MIN_PASSWORD_LENGTH} characters.`] }]);
      const hash = await Bun.password.hash(password, "argon2id");
      await db.write(async (tx) => {
        await store.setPasswordHash(tx, user.id, hash, clock.now());
        await store.deleteUserSessions(tx, user.id, null);
        await throttle.clearLogins([user.email, ...(user.username ? [user.username] : [])]);
      });
      return { id: user.id, email: user.email };
    },

    /**
     * A signed-in person changes their password, proving the current one: every other session of
     * the account ends (this browser's, `keep`, stays). A wrong current password is a 400 and
     * counts as a failed sign-in.
     */
    async changePassword(actor: Actor, current: string, password: string, keep: string | null): Promise<void> {
      if (actor.kind !== "user") throw badRequest("Sign in to change your password.");
      const user = await store.findUser(db, actor.userId);
      if (!user?.active) throw badRequest("Sign in to change your password.");
      const refusal = await throttle.reserve(user.email, null);
      if (refusal) throw refusal;
      if (!user.passwordHash || !(await Bun.password.verify(current, user.passwordHash))) {
        throw validationError([{ field: "current_password", messages: ["This is not the account's current password."] }]);
      }
      await replacePassword(user, password, keep);
    },

    /**
     * A new password for an account whose owner proved their mailbox (a password-reset link): the
     * wait after failed sign-ins is lifted and every session ends.
     */
    async resetPassword(userId: number, password: string): Promise<void> {
      const user = await store.findUser(db, userId);
      if (!user?.active) throw badRequest("This account cannot sign in.");
      await replacePassword(user, password, null);
    },

    /** The daily clean-up of ended sessions. */
    deleteExpired: () => store.deleteExpiredSessions(db, clock.now()),
    /** The daily clean-up of sign-in counts that have started again anyway. */
    deleteForgottenThrottles: () => throttle.deleteForgotten(),
  };
}
