// Who may do what with records and drafts, and the one rule for who sees a record: a scope per
// caller, rendered here as SQL (search, harvest, OAI) and as a predicate over the in-memory
// search columns. Nothing else decides visibility; a differential test keeps the two equal.
import { isAdmin, requireUser, type Actor } from "../core/actor";
import { forbidden, unauthorized } from "../core/errors";

export const isOwner = (actor: Actor, ownerId: number | null) => actor.kind === "user" && ownerId !== null && actor.userId === ownerId;
export const canManage = (actor: Actor, ownerId: number | null) => isAdmin(actor) || isOwner(actor, ownerId);

/**
 * What a caller may see of the records index.
 * - `all`: every published record (administrators and the system).
 * - `readers`: published records that are public, or owned by `userId`; `groupIds` are the
 *   caller's groups, carried for the grants and community roles that will admit records by group.
 * - `own`: a user's own listing (`/api/user/records`): their drafts, and their published records
 *   that have no draft open (the draft stands for the record there).
 */
export type RecordScope = { kind: "all" } | { kind: "readers"; userId: number | null; groupIds: string[] } | { kind: "own"; userId: number };

/** The records listed to `actor`: published ones it may read, or (`own`) its own drafts and records. */
export function recordScope(actor: Actor, listing: "published" | "own" = "published"): RecordScope {
  if (listing === "own") return { kind: "own", userId: actor.kind === "user" ? actor.userId : -1 };
  if (isAdmin(actor)) return { kind: "all" };
  if (actor.kind === "user") return { kind: "readers", userId: actor.userId, groupIds: actor.groupIds };
  return { kind: "readers", userId: null, groupIds: [] };
}

/** What anonymous callers, harvesters and exports of public records see. */
export const publicScope: RecordScope = { kind: "readers", userId: null, groupIds: [] };

export interface ScopeSql {
  where: string;
  params: (string | number)[];
}

/** The scope as a condition on `record_index` under the alias `r`. */
export function scopeSql(scope: RecordScope): ScopeSql {
  switch (scope.kind) {
    case "all":
      return { where: "r.is_draft = 0", params: [] };
    case "readers":
      return scope.userId === null
        ? { where: "r.is_draft = 0 AND r.access_record = 'public'", params: [] }
        : { where: "r.is_draft = 0 AND (r.access_record = 'public' OR r.owner_id = ?)", params: [scope.userId] };
    case "own":
      return {
        where: "r.owner_id = ? AND (r.is_draft = 1 OR NOT EXISTS (SELECT 1 FROM record_index d WHERE d.record_id = r.record_id AND d.is_draft = 1))",
        params: [scope.userId],
      };
  }
}

/** The in-memory columns a scope is decided on (one entry per index row). */
export interface ScopeColumns {
  draft: Uint8Array;
  isPublic: Uint8Array;
  owner: Int32Array;
}

/**
 * The scope as a test of row `i` of the in-memory columns, the same rule as `scopeSql`; null when
 * the columns cannot decide it (the own listing needs to know which records have a draft open).
 */
export function scopePredicate(scope: RecordScope, c: ScopeColumns): ((i: number) => boolean) | null {
  // The columns are read once here, not per row: the test runs once for every row a search counts.
  const { draft, isPublic, owner } = c;
  switch (scope.kind) {
    case "all":
      return (i) => draft[i] === 0;
    case "readers": {
      if (scope.userId === null) return (i) => draft[i] === 0 && isPublic[i] === 1;
      const userId = scope.userId;
      return (i) => draft[i] === 0 && (isPublic[i] === 1 || owner[i] === userId);
    }
    case "own":
      return null;
  }
}

/** Whether a published record is visible to everyone (listed to harvesters, kept out of OAI tombstones). */
export const isPublicRecord = (record: { accessRecord: string }) => record.accessRecord === "public";

/** Reading a published record: public ones by anyone; restricted ones by who manages them. */
export function canRead(actor: Actor, record: { accessRecord: string; ownerId: number | null }) {
  return isPublicRecord(record) || canManage(actor, record.ownerId);
}

/** 401 for anonymous callers, 403 for others who do not manage the record. */
export function requireManage(actor: Actor, ownerId: number | null) {
  requireUser(actor);
  if (!canManage(actor, ownerId)) throw forbidden();
}

/** 401/403 unless the actor may read the published record. */
export function requireRead(actor: Actor, record: { accessRecord: string; ownerId: number | null }) {
  if (canRead(actor, record)) return;
  if (actor.kind === "anonymous") throw unauthorized();
  throw forbidden();
}

/** Files of a published record: who manages it always; others when the record and its files are public and not embargoed. */
export function canReadFiles(actor: Actor, record: { accessRecord: string; ownerId: number | null; document: unknown }) {
  if (canManage(actor, record.ownerId)) return true;
  const access = (record.document as { access?: { files?: string; embargo?: { active?: boolean } } }).access;
  return isPublicRecord(record) && access?.files !== "restricted" && !access?.embargo?.active;
}

/** 401/403 unless the actor may read the record's files (a restricted record reads as not found-or-forbidden first). */
export function requireReadFiles(actor: Actor, record: { accessRecord: string; ownerId: number | null; document: unknown }) {
  requireRead(actor, record);
  if (canReadFiles(actor, record)) return;
  if (actor.kind === "anonymous") throw unauthorized("The files of this record are restricted or under embargo: sign in with an account that has access.");
  throw forbidden("The files of this record are restricted or under embargo.");
}
