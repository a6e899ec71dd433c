// Browser sign-in with local passwords: sessions behind an HttpOnly cookie, a CSRF token per
// session, and a lock after repeated failures. The cookie stands for the user to the pages and to
// the REST API alike (as in InvenioRDM), cookie-authenticated API writes carrying the CSRF token.
import { requireAdmin, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { HttpError, notFound, validationError } from "../core/errors";
import { hashSecret, newSecret } from "../core/ids";
import { writeTransaction } from "../db/connection";
import * as store from "./store";

/** Sessions end after a week unused, and a month after sign-in whatever the use. */
const IDLE_MS = 7 * 86_400_000;
const ABSOLUTE_MS = 30 * 86_400_000;
/** Refreshing the idle expiry on every request would write on every page view: once a minute is enough. */
const TOUCH_MS = 60_000;
/** From the fifth failed attempt in a row the account is locked, 15 minutes and doubling, at most a day. */
const FREE_FAILURES = 4;
const LOCK_MS = 15 * 60_000;
const MAX_LOCK_MS = 86_400_000;
const MIN_PASSWORD_LENGTH = 8;

/** What a session's cookie stands for. */
export interface SessionActor {
  actor: Actor & { kind: "user" };
  csrf: string;
}

export type SessionsService = ReturnType<typeof createSessionsService>;

export interface SessionsDeps extends Deps {
  /** The groups of a user (the tokens module's answer, as for a token). */
  groupIdsOf(userId: number): string[];
}

export function createSessionsService(deps: SessionsDeps) {
  const { db, clock } = deps;
  let dummyHash: string | undefined;
  const refused = () => new HttpError(400, "The e-mail address (or username) and password do not match an active account.");
  const openSession = (userId: number) => {
    const now = clock.now();
    const secret = newSecret();
    const csrf = newSecret();
    store.insertSession(db, { tokenHash: hashSecret(secret), userId, csrfToken: csrf, created: now, lastSeen: now, expiresAt: now + IDLE_MS });
    return { secret, csrf, userId };
  };

  return {
    /**
     * Checks the password and opens a session: its cookie secret and CSRF token. A wrong or
     * unknown login is one message for both (no account discovery); a locked account says until when.
     */
    async signIn(login: string, password: string): Promise<{ secret: string; csrf: string; userId: number }> {
      const now = clock.now();
      const user = login.trim() ? store.findAccount(db, login.trim()) : null;
      if (!user || !user.active || !user.passwordHash) {
        // The same work as a real check, so timing does not tell whether the account exists.
        await Bun.password.verify(password, (dummyHash ??= await Bun.password.hash(newSecret(), "argon2id")));
        throw refused();
      }
      if (user.lockedUntil !== null && user.lockedUntil > now) {
        throw new HttpError(
          429,
          `Too many failed sign-ins: the account is locked until ${new Date(user.lockedUntil).toISOString().slice(0, 16).replace("T", " ")} UTC.`,
          undefined,
          {
            "Retry-After": String(Math.ceil((user.lockedUntil - now) / 1000)),
          },
        );
      }
      if (!(await Bun.password.verify(password, user.passwordHash))) {
        const failures = user.failedLogins + 1;
        const over = failures - FREE_FAILURES;
        store.recordFailure(db, user.id, over > 0 ? now + Math.min(LOCK_MS * 2 ** (over - 1), MAX_LOCK_MS) : null);
        throw refused();
      }
      return writeTransaction(db, () => {
        store.clearFailures(db, user.id);
        return openSession(user.id);
      });
    },

    /** A new session for a user whose identity was proved another way (the one-time sign-in link). */
    openSession,

    /** Ends the session (signing out); an unknown secret is fine. */
    signOut(secret: string) {
      store.deleteSession(db, hashSecret(secret));
    },

    /** The user and CSRF token of a live session, or null; keeps the session alive while used. */
    resolve(secret: string): SessionActor | null {
      const now = clock.now();
      const hash = hashSecret(secret);
      const session = store.findLiveSession(db, hash, now);
      if (!session) return null;
      const user = store.findUser(db, session.userId);
      if (!user || !user.active) return null;
      if (now - session.lastSeen >= TOUCH_MS) store.touchSession(db, hash, now, Math.min(now + IDLE_MS, session.created + ABSOLUTE_MS));
      return {
        actor: { kind: "user", userId: user.id, isAdmin: user.isAdmin, groupIds: deps.groupIdsOf(user.id), scopes: [], tokenId: null },
        csrf: session.csrfToken,
      };
    },

    /** `cairn users set-password` (administrators, the system): a new password, the lock lifted, every session ended. */
    async setPassword(actor: Actor, login: string, password: string) {
      requireAdmin(actor);
      const user = store.findAccount(db, login);
      if (!user) throw notFound(`No account '${login}'.`);
      if (password.length < MIN_PASSWORD_LENGTH) throw validationError([{ field: "password", messages: [`A password has at least ${MIN_PASSWORD_LENGTH} characters.`] }]);
      const hash = await Bun.password.hash(password, "argon2id");
      writeTransaction(db, () => {
        store.setPasswordHash(db, user.id, hash, clock.now());
        store.deleteUserSessions(db, user.id);
      });
      return { id: user.id, email: user.email };
    },

    /** The daily clean-up of ended sessions. */
    deleteExpired: () => store.deleteExpiredSessions(db, clock.now()),
  };
}
