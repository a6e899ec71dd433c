// The one-time sign-in link of the desktop start: a secret whose hash and expiry wait in the data
// directory, and that opens a browser session for the first administrator once.
// Kept in a file, not a table: one link at a time, short-lived, no part of the repository's data
// (backups leave it out), and written by whichever `cairn` process prints it — a second desktop
// start hands a fresh link to the server already running there.
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HttpError } from "../core/errors";
import { hashSecret, newSecret } from "../core/ids";
import { HOUR_MS, type Clock } from "../core/time";
import type { Db } from "../db/port";
import type { SessionsService } from "./service";
import * as store from "./store";

export const SIGN_IN_LINK_FILE = "cairn.sign-in-link.json";
/** Long enough to copy the link from the terminal when no browser opened; short enough not to linger. */
export const SIGN_IN_LINK_MS = HOUR_MS;
/** The path the link opens (pages/sign-in-link.tsx). */
export const SIGN_IN_LINK_PATH = "/login/once";

interface Pending {
  tokenHash: string;
  expiresAt: number;
}

/** Makes a new link secret, replacing any earlier one; only its hash is written. */
export function issueSignInLink(dataDir: string, clock: Clock): { token: string; expiresAt: number } {
  const token = newSecret();
  const pending: Pending = { tokenHash: hashSecret(token), expiresAt: clock.now() + SIGN_IN_LINK_MS };
  const path = join(dataDir, SIGN_IN_LINK_FILE);
  // Written beside and renamed over: a reader never sees half a file. The file is never held open,
  // so the rename also replaces it on Windows.
  writeFileSync(`${path}.${process.pid}.tmp`, JSON.stringify(pending), { mode: 0o600 });
  renameSync(`${path}.${process.pid}.tmp`, path);
  return { token, expiresAt: pending.expiresAt };
}

/** The same answer for a wrong, used, replaced or expired link: a guess learns nothing. */
const invalid = () =>
  new HttpError(
    410,
    "This sign-in link no longer works: it was used already, it expired, or a newer one replaced it. Start Cairn again for a new link, or sign in with the password in admin-credentials.txt in the data folder.",
  );

export type SignInLinks = ReturnType<typeof createSignInLinks>;

export function createSignInLinks(deps: { dataDir: string; clock: Clock; db: Db; sessions: SessionsService }) {
  const path = join(deps.dataDir, SIGN_IN_LINK_FILE);
  const read = (): Pending | null => {
    try {
      return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Pending) : null;
    } catch {
      return null;
    }
  };
  /** The waiting link if `token` is it (expired or not), else the refusal. */
  const waiting = (token: string): Pending => {
    const pending = read();
    if (!pending || !token || hashSecret(token) !== pending.tokenHash) throw invalid();
    return pending;
  };
  return {
    /**
     * Refuses as `use` would, without spending the link: link previewers and mail scanners send a
     * HEAD (or fetch it) before the person's browser opens it.
     */
    check(token: string): void {
      if (waiting(token).expiresAt <= deps.clock.now()) throw invalid();
    },

    /** Opens a session for the first administrator if `token` is the waiting link; the link is spent by it. */
    async use(token: string): Promise<{ secret: string; csrf: string; userId: number }> {
      const pending = waiting(token);
      // Spent before anything else: the synchronous read-and-delete cannot interleave with another
      // request of this process, and of two processes that both read the link only the one whose
      // delete succeeds uses it (the other's delete finds no file: spent, not a failure).
      try {
        unlinkSync(path);
      } catch {
        throw invalid();
      }
      if (pending.expiresAt <= deps.clock.now()) throw invalid();
      const admin = await store.findFirstAdmin(deps.db);
      if (!admin) throw new HttpError(409, "This repository has no active administrator to sign in as.");
      return deps.sessions.openSession(admin.id, { method: "link" });
    },
  };
}
