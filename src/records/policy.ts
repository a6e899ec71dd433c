// Who may do what with records and drafts, and the one rule for who sees a record: a scope per
// caller, rendered here as SQL (search, harvest, OAI) and as a predicate over the in-memory
// search columns, and a permission level per caller and record for everything else. Nothing else
// decides visibility; a differential test keeps the two renderings equal.
import { isAdmin, requireUser, type Actor } from "../core/actor";
import { forbidden, gone, notFound, unauthorized } from "../core/errors";
import { atLeast as holdsAtLeast, type Role as CommunityRole } from "../communities/roles";

/** Curators, managers and owners curate a community (review, include, manage its records). */
export const curates = (role: CommunityRole | null | undefined) => holdsAtLeast(role, "curator");

export const isOwner = (actor: Actor, ownerId: number | null) => actor.kind === "user" && ownerId !== null && actor.userId === ownerId;

/**
 * InvenioRDM's permission ladder for one record, each level including those below it:
 * - `manage`: the owner, curators of a community the record is in, administrators, `manage` grants
 *   (access, inclusion, ownership);
 * - `curate`: edit a published record, new versions, delete a draft — `edit` grants and links;
 * - `review`: update and publish a draft, its files and DOI — also the curators of the community a
 *   draft is submitted to while the review is open;
 * - `preview`: read a draft — `preview` grants and links;
 * - `view`: read a restricted record and its files — `view` grants and links, members of the
 *   record's communities, curators of a community asked to include it.
 */
export const LEVELS = ["none", "view", "preview", "review", "curate", "manage"] as const;
export type Level = (typeof LEVELS)[number];
export const atLeast = (level: Level, wanted: Level) => LEVELS.indexOf(level) >= LEVELS.indexOf(wanted);

/** The level each grant or secret-link permission gives. */
const SHARED: Record<string, Level> = { manage: "manage", edit: "curate", preview: "preview", view: "view" };

const stronger = (a: Level, b: Level): Level => (atLeast(a, b) ? a : b);

/** What a caller's level on a record depends on beyond its owner; read lazily, only when the owner test does not decide. */
export interface AccessFacts {
  ownerId: number | null;
  /** The strongest permission the caller's unexpired grants and secret link give on the record's parent (`view`...`manage`), or null. */
  sharedPermission(): Promise<string | null>;
  /** The caller's roles in the communities the record's parent is included in. */
  memberRoles(): Promise<CommunityRole[]>;
  /** The caller's role in the community an open review of this draft is submitted to. */
  reviewerRole(): Promise<CommunityRole | null>;
  /** The caller curates a community that an open inclusion request of this record is sent to. */
  reviewsInclusion(): Promise<boolean>;
}

/**
 * The level that ownership alone decides, or null when it takes the facts: administrators and the
 * owner manage; a guest without a secret link has no grant, link or role, so only public records.
 */
export function plainLevelOf(actor: Actor, ownerId: number | null): Level | null {
  if (isAdmin(actor) || isOwner(actor, ownerId)) return "manage";
  return actor.kind === "anonymous" && !actor.linkToken ? "none" : null;
}

/** The caller's level on a record or draft: the strongest its ownership, community roles, grants and secret link give. */
export async function levelOf(actor: Actor, facts: AccessFacts): Promise<Level> {
  const plain = plainLevelOf(actor, facts.ownerId);
  if (plain) return plain;
  const shared = SHARED[(await facts.sharedPermission()) ?? ""] ?? "none";
  if (actor.kind !== "user" || shared === "manage") return shared;
  const roles = await facts.memberRoles();
  if (roles.some(curates)) return "manage";
  if (curates(await facts.reviewerRole())) return stronger(shared, "review");
  if (roles.length > 0 || (await facts.reviewsInclusion())) return stronger(shared, "view");
  return shared;
}

/** 401 for anonymous callers, 403 for others below the level (a secret link may lift an anonymous caller to it). */
export function requireLevel(actor: Actor, level: Level, wanted: Level) {
  if (atLeast(level, wanted)) return;
  requireUser(actor);
  throw forbidden();
}

/**
 * What a caller may see of the records index.
 * - `all`: every published record (administrators and the system).
 * No scope but the administrators' `everything` lists a deleted record: its index row stays so OAI-PMH
 * sets select its deleted header, and administrators find it to restore it.
 * - `readers`: published records that are public, owned by `userId`, shared with it or one of its
 *   `groupIds` by a grant unexpired at `now`, included in one of `communities` (the caller is a
 *   member), or asked to be included in one of `reviewing` (the caller curates it). Secret links
 *   open one record, not searches.
 * - `own`: a user's own listing (`/api/user/records`): their drafts, and their published records
 *   that have no draft open (the draft stands for the record there).
 */
export type RecordScope =
  | { kind: "all" }
  | { kind: "readers"; userId: number | null; groupIds: string[]; communities: string[]; reviewing: string[]; now: number }
  | { kind: "own"; userId: number }
  | { kind: "everything"; drafts: boolean; deleted: DeletedRecords };

/**
 * The administrators' listings (`everything`): records deleted or not (`include_deleted`,
 * InvenioRDM's `status`), with drafts for the administration's records screen.
 * - `with`: deleted and live ones; `only`: deleted ones; `without`: live ones.
 */
export type DeletedRecords = "with" | "only" | "without";

/** Administrators list every record, drafts and deleted ones too (`everything`); 403 for anyone else. */
export function everythingScope(actor: Actor, drafts: boolean, deleted: DeletedRecords): RecordScope {
  if (!isAdmin(actor)) {
    requireUser(actor);
    throw forbidden();
  }
  return { kind: "everything", drafts, deleted };
}

const DELETED_SQL: Record<DeletedRecords, string> = { with: "1 = 1", only: "r.deleted = 1", without: "r.deleted = 0" };

/** The records listed to `actor` (with its community roles): published ones it may read, or (`own`) its own drafts and records. */
export function recordScope(actor: Actor, listing: "published" | "own" = "published", roles: ReadonlyMap<string, CommunityRole> = new Map(), now = 0): RecordScope {
  if (listing === "own") return { kind: "own", userId: actor.kind === "user" ? actor.userId : -1 };
  if (isAdmin(actor)) return { kind: "all" };
  if (actor.kind !== "user") return publicScope;
  const member = [...roles.keys()].sort();
  return { kind: "readers", userId: actor.userId, groupIds: actor.groupIds, communities: member, reviewing: member.filter((id) => curates(roles.get(id))), now };
}

/** What anonymous callers, harvesters and exports of public records see. */
export const publicScope: RecordScope = { kind: "readers", userId: null, groupIds: [], communities: [], reviewing: [], now: 0 };

export interface ScopeSql {
  where: string;
  params: (string | number)[];
}

const marks = (values: unknown[]) => values.map(() => "?").join(", ");

/**
 * Records a `readers` scope admits beyond public and own ones, as conditions on `record_index r`
 * (any one admits); none for anonymous callers. The in-memory path resolves each to index keys once
 * per search: alone, each is answered from an index of the small side (grants, inclusions).
 */
export function grantedParts(scope: RecordScope): ScopeSql[] {
  if (scope.kind !== "readers" || scope.userId === null) return [];
  const parts: ScopeSql[] = [];
  // Grants to the user or its groups, of any permission (each includes view), not yet expired.
  const groups = scope.groupIds.length ? ` OR (subject_type = 'role' AND subject_id IN (${marks(scope.groupIds)}))` : "";
  parts.push({
    where: `r.parent_id IN (SELECT parent_id FROM record_grants WHERE ((subject_type = 'user' AND subject_id = ?)${groups}) AND (expires_at IS NULL OR expires_at > ?))`,
    params: [String(scope.userId), ...scope.groupIds, scope.now],
  });
  if (scope.communities.length) {
    parts.push({ where: `r.parent_id IN (SELECT parent_id FROM record_communities WHERE community_id IN (${marks(scope.communities)}))`, params: scope.communities });
  }
  if (scope.reviewing.length) {
    parts.push({
      where: `r.record_id IN (SELECT topic_id FROM requests WHERE type = 'community-inclusion' AND status = 'submitted' AND topic_kind = 'record' AND receiver_kind = 'community' AND receiver_id IN (${marks(scope.reviewing)}))`,
      params: scope.reviewing,
    });
  }
  return parts;
}

/** The granted parts as one condition; null when there are none. */
export function grantedSql(scope: RecordScope): ScopeSql | null {
  const parts = grantedParts(scope);
  return parts.length ? { where: `(${parts.map((p) => p.where).join(" OR ")})`, params: parts.flatMap((p) => p.params) } : null;
}

/** The scope as a condition on `record_index` under the alias `r`. */
export function scopeSql(scope: RecordScope): ScopeSql {
  switch (scope.kind) {
    case "all":
      return { where: "r.is_draft = 0 AND r.deleted = 0", params: [] };
    case "readers": {
      if (scope.userId === null) return { where: "r.is_draft = 0 AND r.deleted = 0 AND r.access_record = 'public'", params: [] };
      const granted = grantedSql(scope);
      return granted
        ? { where: `r.is_draft = 0 AND r.deleted = 0 AND (r.access_record = 'public' OR r.owner_id = ? OR ${granted.where})`, params: [scope.userId, ...granted.params] }
        : { where: "r.is_draft = 0 AND r.deleted = 0 AND (r.access_record = 'public' OR r.owner_id = ?)", params: [scope.userId] };
    }
    case "own":
      return {
        where: "r.owner_id = ? AND r.deleted = 0 AND (r.is_draft = 1 OR NOT EXISTS (SELECT 1 FROM record_index d WHERE d.record_id = r.record_id AND d.is_draft = 1))",
        params: [scope.userId],
      };
    case "everything":
      return { where: `${scope.drafts ? "1 = 1" : "r.is_draft = 0"} AND ${DELETED_SQL[scope.deleted]}`, params: [] };
  }
}

/** The in-memory columns a scope is decided on (one entry per index row). */
export interface ScopeColumns {
  key: Int32Array;
  draft: Uint8Array;
  deleted: Uint8Array;
  isPublic: Uint8Array;
  owner: Int32Array;
}

/**
 * The scope as a test of row `i` of the in-memory columns, the same rule as `scopeSql`; `granted`
 * holds the index keys `grantedSql` selects. Null when the columns cannot decide it (the own
 * listing needs to know which records have a draft open).
 */
export function scopePredicate(scope: RecordScope, c: ScopeColumns, granted: ReadonlySet<number> = new Set()): ((i: number) => boolean) | null {
  // The columns are read once here, not per row: the test runs once for every row a search counts.
  const { key, draft, deleted, isPublic, owner } = c;
  switch (scope.kind) {
    case "all":
      return (i) => draft[i] === 0 && deleted[i] === 0;
    case "readers": {
      if (scope.userId === null) return (i) => draft[i] === 0 && deleted[i] === 0 && isPublic[i] === 1;
      const userId = scope.userId;
      if (granted.size === 0) return (i) => draft[i] === 0 && deleted[i] === 0 && (isPublic[i] === 1 || owner[i] === userId);
      return (i) => draft[i] === 0 && deleted[i] === 0 && (isPublic[i] === 1 || owner[i] === userId || granted.has(key[i]!));
    }
    case "own":
      return null;
    case "everything":
      // The in-memory path answers published hits only, and its `deleted` also marks rows a rewrite
      // left behind: listings with drafts or deleted records are answered in SQL.
      if (scope.drafts || scope.deleted !== "without") return null;
      return (i) => draft[i] === 0 && deleted[i] === 0;
  }
}

/** What the read rules look at on a published record. */
interface Readable {
  accessRecord: string;
  /** InvenioRDM's deletion status: `P` published, `D` deleted (absent: published). */
  deletionStatus?: string;
  tombstone?: Record<string, unknown> | null;
}

/** Removed by an administrator: a tombstone answers in the record's place, for everyone. */
export const isDeleted = (record: { deletionStatus?: string }) => record.deletionStatus !== undefined && record.deletionStatus !== "P";

/** Whether a published record is visible to everyone (listed to harvesters, kept out of OAI tombstones). */
export const isPublicRecord = (record: Readable) => record.accessRecord === "public" && !isDeleted(record);

/**
 * A deleted record reads as gone: 410 with its tombstone, or 404 when the tombstone is hidden.
 * Administrators still read it when they ask for deleted records (`include_deleted`), to restore it.
 */
export function requireNotDeleted(actor: Actor, record: Readable, includeDeleted = false) {
  if (!isDeleted(record) || (includeDeleted && isAdmin(actor))) return;
  if (record.tombstone?.is_visible === false) throw notFound("The persistent identifier does not exist.");
  throw gone("The record has been deleted.", { tombstone: record.tombstone ?? {} });
}

/** Reading a published record (not deleted: see requireNotDeleted): public ones by anyone; restricted ones from `view` up. */
export const canRead = (record: Readable, level: Level) => isPublicRecord(record) || atLeast(level, "view");

/** 410/404 for a deleted record (see requireNotDeleted), else 401/403 unless the actor may read the published record. */
export function requireRead(actor: Actor, record: Readable, level: Level, options: { includeDeleted?: boolean } = {}) {
  requireNotDeleted(actor, record, options.includeDeleted);
  if (canRead(record, level)) return;
  if (actor.kind === "anonymous") throw unauthorized();
  throw forbidden();
}

/** Files of a published record: from `view` up always; others when the record and its files are public and not embargoed. */
export function canReadFiles(record: Readable & { document: unknown }, level: Level) {
  if (atLeast(level, "view")) return true;
  const access = (record.document as { access?: { files?: string; embargo?: { active?: boolean } } }).access;
  return isPublicRecord(record) && access?.files !== "restricted" && !access?.embargo?.active;
}

/** 401/403 unless the actor may read the record's files (a restricted record reads as not found-or-forbidden first). */
export function requireReadFiles(actor: Actor, record: Readable & { document: unknown }, level: Level) {
  requireRead(actor, record, level);
  if (canReadFiles(record, level)) return;
  if (actor.kind === "anonymous") throw unauthorized("The files of this record are restricted or under embargo: sign in with an account that has access.");
  throw forbidden("The files of this record are restricted or under embargo.");
}
