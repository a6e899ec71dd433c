// The data directory's privacy: the database, its WAL, uploaded bytes and keys are readable by the
// account running Cairn only. What Cairn creates is private by its umask (directories 0700, files
// 0600); what an earlier version or a copy left wider is narrowed when the server starts.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { restoreLeftovers } from "../backup/restore";
import { ConfigError } from "../config";

/** The umask of every Cairn process: nothing it creates is open to group or others. */
export const PRIVATE_UMASK = 0o077;

/** Names listed in the warning; the rest are counted. */
const NAMES_SHOWN = 10;

/**
 * Refuses a data directory a restore is writing or left unfinished: anything opened there now
 * would make an empty repository beside the half-restored one, and the restore then refuses the
 * directory as not empty.
 */
export function refuseUnfinishedRestore(dir: string): void {
  const leftovers = restoreLeftovers(dir);
  if (!leftovers.length) return;
  const leftover = join(dir, leftovers[0]!);
  const others = readdirSync(dir).filter((n) => !leftovers.includes(n));
  throw new ConfigError(
    others.length
      ? `${dir} holds an unfinished restore (${leftover}) beside other data: to finish the restore, remove ${dir} and run cairn restore SRC --data ${dir} again; to keep ${dir} as it is instead, remove ${leftover}`
      : `${dir} holds an unfinished restore (${leftover}): run cairn restore SRC --data ${dir} again (it clears the leftover), or remove ${leftover} to start an empty repository here`,
  );
}

/**
 * Sets the process umask and makes `dir` (mode 0700) when it is missing; refuses a directory
 * holding an unfinished restore. Every command but restore runs this first.
 */
export function prepareDataDir(dir: string): void {
  if (existsSync(dir)) refuseUnfinishedRestore(dir);
  process.umask(PRIVATE_UMASK);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

export interface Narrowed {
  /** Paths made private, relative to the data directory ("." for itself). */
  changed: string[];
  /** Paths that could not be changed (another owner), with the reason. */
  failed: string[];
}

/** What Cairn keeps in a data directory; anything else there is someone else's and left alone. */
const isCairnEntry = (name: string) => name.startsWith("cairn.") || name === "admin-credentials.txt" || name === "files" || name === "tls";

/**
 * Takes group and other permissions off the data directory and Cairn's entries in it: directories
 * become 0700, files keep only their owner bits (0644 -> 0600). Walks with lstat, reading no file
 * and following no symbolic link (a link's target may be anything, anywhere).
 */
export function narrowPermissions(dir: string): Narrowed {
  const result: Narrowed = { changed: [], failed: [] };
  // Windows has no POSIX modes (stat reports 0o666 for every writable file; chmod only sets
  // read-only): the data folder is private by the ACL of the user's profile it lives in.
  if (process.platform === "win32") return result;
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (!stat.isDirectory() && !stat.isFile()) return;
    const mode = stat.mode & 0o777;
    if ((mode & 0o077) !== 0) {
      const name = relative(dir, path) || ".";
      try {
        chmodSync(path, stat.isDirectory() ? 0o700 : mode & 0o700);
        result.changed.push(stat.isDirectory() && name !== "." ? `${name}/` : name);
      } catch (err) {
        result.failed.push(`${name} (${(err as NodeJS.ErrnoException).code ?? err})`);
      }
    }
    if (!stat.isDirectory()) return;
    for (const entry of readdirSync(path).sort()) if (path !== dir || isCairnEntry(entry)) visit(join(path, entry));
  };
  visit(dir);
  return result;
}

const listed = (names: string[]) => names.slice(0, NAMES_SHOWN).join(", ") + (names.length > NAMES_SHOWN ? ` and ${names.length - NAMES_SHOWN} more` : "");

/** At server start: prepares `dir`, narrows what is too open, and warns once naming it. */
export function secureDataDir(dir: string, warn: (line: string) => void): Narrowed {
  prepareDataDir(dir);
  const result = narrowPermissions(dir);
  if (result.changed.length) {
    warn(`warning: ${dir} was readable by other users; made private (directories 0700, files 0600): ${listed(result.changed)}`);
  }
  if (result.failed.length) warn(`warning: could not make these private in ${dir}, change them by hand: ${listed(result.failed)}`);
  return result;
}
