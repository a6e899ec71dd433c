// Slowing guessing and mail-bombing without locking the owner out: every sign-in attempt (and every request that mails an address) is counted against
// its login name and its client address before its password is checked, in one transaction, so a
// burst sent at once meets the same count as attempts sent one by one. Past a free allowance each
// further attempt must wait, the wait doubling up to a quarter of an hour. Names that match no
// account are counted in the same way, so the answers never tell whether an account exists.
import { isIP } from "node:net";
import { createAddressResolver, isLoopback, type PeerInfo } from "../core/client-address";
import { HttpError } from "../core/errors";
import { hashSecret } from "../core/ids";
import { HOUR_MS, type Clock } from "../core/time";
import type { Db } from "../db/port";
import * as store from "./store";

export interface ThrottleRule {
  /** Attempts counted before any has to wait. */
  free: number;
  firstWaitMs: number;
  maxWaitMs: number;
  /** Completes "Too many failed sign-ins …". */
  what: string;
}

/** Per login name: five attempts straight away, then waits of 1, 2, 4 and 8 minutes, then a quarter of an hour each. */
export const LOGIN_RULE: ThrottleRule = { free: 5, firstWaitMs: 60_000, maxWaitMs: 15 * 60_000, what: "with this e-mail address or username" };
/** Per client address, which many people may share (an office, a library): twenty, then from a second, doubling. */
export const ADDRESS_RULE: ThrottleRule = { free: 20, firstWaitMs: 1_000, maxWaitMs: 15 * 60_000, what: "from this network address" };
/** A count nobody added to for an hour starts again (longer than any wait, so nothing forgotten is still waiting). */
export const FORGET_MS = HOUR_MS;

/** What a throttle counts: attempts per name and per client address, each under its rule, in keys of their own. */
export interface ThrottleKind {
  namePrefix: string;
  addressPrefix: string;
  name: ThrottleRule;
  address: ThrottleRule;
  /** Begins the refusal: "Too many <doing> …". */
  doing: string;
}

/** Password sign-ins: only failures stay counted. */
export const SIGN_IN: ThrottleKind = { namePrefix: "login", addressPrefix: "address", name: LOGIN_RULE, address: ADDRESS_RULE, doing: "failed sign-ins" };

/**
 * Requests that send mail to an address (sign-up, password reset, a new confirmation link): each
 * counts. Three per address straight away, then waits from 5 minutes; ten per client address, then
 * from a minute; waits end within half an hour, so a count is forgotten after an hour.
 */
export const ACCOUNT_MAIL: ThrottleKind = {
  namePrefix: "mail",
  addressPrefix: "mail-address",
  name: { free: 3, firstWaitMs: 5 * 60_000, maxWaitMs: 30 * 60_000, what: "for this e-mail address" },
  address: { free: 10, firstWaitMs: 60_000, maxWaitMs: 30 * 60_000, what: "from this network address" },
  doing: "requests for account mail",
};

/** How long the attempt after `failures` counted ones must wait (0: none). */
export const waitAfter = (rule: ThrottleRule, failures: number) =>
  failures < rule.free ? 0 : Math.min(rule.firstWaitMs * 2 ** Math.min(failures - rule.free, 30), rule.maxWaitMs);

const nameKey = (prefix: string, name: string) => hashSecret(`${prefix}:${name.trim().toLowerCase()}`);
const addressKey = (prefix: string, address: string) => hashSecret(`${prefix}:${address}`);

/** "45 seconds", "3 minutes": how long the refusal asks to wait. */
function span(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds <= 90) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/** The four blocks of an IPv6 address's network (/64): one host owns the whole of it, so it counts as one address. */
function ipv6Network(address: string): string {
  const [head = "", tail] = address.split("%")[0]!.split("::");
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes(".") ? 2 : 1), 0);
  const before = head ? head.split(":") : [];
  const after = tail ? tail.split(":") : [];
  const groups = tail === undefined ? before : [...before, ...Array<string>(Math.max(0, 8 - width(before) - width(after))).fill("0"), ...after];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/**
 * The address a sign-in is counted by, or null for one not counted by address: in-process calls,
 * and the loopback address unless reverse proxies are configured (without them every client
 * behind a proxy would look local and share one count, as for the request rate limits).
 */
export function createThrottleAddressOf(trustedProxies: string[]) {
  const resolve = createAddressResolver(trustedProxies);
  return (request: Request, server: PeerInfo | null): string | null => {
    const address = resolve(request, server);
    if (address === null || (!resolve.trustsProxies && isLoopback(address))) return null;
    return isIP(address) === 6 ? ipv6Network(address) : address;
  };
}

export type Throttle = ReturnType<typeof createThrottle>;

/** Counts of `kind` (SIGN_IN by default) kept in the database, so that every server process counts the same attempts. */
export function createThrottle(db: Db, clock: Clock, kind: ThrottleKind = SIGN_IN) {
  const loginKey = (login: string) => nameKey(kind.namePrefix, login);
  const keysOf = (login: string, address: string | null) => [
    { key: loginKey(login), rule: kind.name },
    ...(address === null ? [] : [{ key: addressKey(kind.addressPrefix, address), rule: kind.address }]),
  ];

  return {
    /**
     * Counts an attempt as failed before its password is checked (a success takes it back), or
     * refuses it with 429 and Retry-After while its name or address must wait. Read and written
     * in one write transaction: concurrent attempts, from this process or another, see each
     * other's counts, so a burst gets no more checks than attempts sent one at a time.
     */
    async reserve(login: string, address: string | null): Promise<HttpError | null> {
      const now = clock.now();
      const keys = keysOf(login, address);
      return db.write(async (tx) => {
        const found = await store.findThrottles(
          tx,
          keys.map((k) => k.key),
        );
        const rows = new Map(found.map((row) => [row.key, row]));
        let refusal: { until: number; rule: ThrottleRule } | null = null;
        for (const { key, rule } of keys) {
          const until = rows.get(key)?.waitUntil ?? 0;
          if (until > now && (!refusal || until > refusal.until)) refusal = { until, rule };
        }
        if (refusal) {
          const seconds = Math.ceil((refusal.until - now) / 1000);
          return new HttpError(429, `Too many ${kind.doing} ${refusal.rule.what}: try again in ${span(refusal.until - now)}.`, undefined, {
            "Retry-After": String(seconds),
          });
        }
        for (const { key, rule } of keys) {
          const row = rows.get(key);
          const failures = (row && row.lastAttempt > now - FORGET_MS ? row.failures : 0) + 1;
          const wait = waitAfter(rule, failures);
          // Never an earlier end of a wait over a later one.
          const waitUntil = wait > 0 ? Math.max(now + wait, row?.waitUntil ?? 0) : (row?.waitUntil ?? null);
          await store.upsertThrottle(tx, { key, failures, lastAttempt: now, waitUntil });
        }
        return null;
      });
    },

    /**
     * A right password (in the caller's transaction): the name's count starts again; the address
     * only takes back this attempt, so signing in to one's own account between guesses at others'
     * does not clear the address's count.
     */
    async succeeded(login: string, address: string | null): Promise<void> {
      await store.deleteThrottles(db, [loginKey(login)]);
      if (address === null) return;
      const key = addressKey(kind.addressPrefix, address);
      const row = (await store.findThrottles(db, [key]))[0];
      if (!row) return;
      const failures = Math.max(0, row.failures - 1);
      await store.upsertThrottle(db, { ...row, failures, waitUntil: waitAfter(kind.address, failures) > 0 ? row.waitUntil : null });
    },

    /** A new password was set: the counts of the account's names start again (`cairn users set-password` lifts the wait). */
    async clearLogins(logins: string[]): Promise<void> {
      await store.deleteThrottles(db, logins.map(loginKey));
    },

    /** The daily clean-up: counts that have started again anyway. */
    deleteForgotten: () => store.deleteThrottlesUntil(db, clock.now() - FORGET_MS),
  };
}
