// Administrators managing accounts (InvenioRDM's user moderation): the list of every account, and
// block, restore, approve, activate, deactivate, promote and demote — each authorised first, written
// with its audit entry in one transaction, used alike by the REST API, the CLI and the pages.
import { requireAdmin, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { badRequest, invalidQuery, notFound, type FieldError } from "../core/errors";
import { parsePage, searchEnvelope, type SearchResult } from "../core/paging";
import { queryWords } from "../core/word-match";
import type { Db } from "../db/port";
import { usersTable } from "../db/tables";
import type { AuditService } from "../audit/service";
import { sql } from "drizzle-orm";
import { ALL_USERS_SORTS, type AccountFilters, type ActionContext, type AllUsersQuery, type AllUsersSort } from "./model";
import { isSelf } from "./policy";
import { presentManagedUser, type ManagedUserJson } from "./present";
import { createUserDeletion, guardAccount, refusePlaceholder, type OwnedHooks } from "./admin-delete";
import * as store from "./store";

const LIMITS = { defaultSize: 10, maxSize: 100, maxWindow: 10_000 };

/** The account changes an administrator makes, as the audit log names them (`user.{action}`). */
export const USER_ACTIONS = ["block", "restore", "approve", "activate", "deactivate", "promote", "demote"] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

export interface UserAdminDeps extends Deps {
  audit: Pick<AuditService, "record">;
  /** Ends every browser session of the user, inside the caller's transaction. */
  endSessions(userId: number, tx: Db): Promise<unknown>;
  /**
   * Cancels (as the system) the open requests the user created and deletes their drafts, in the
   * caller's transaction; the number closed. Work for after the commit goes to `afterCommit`.
   */
  closeRequestsOf(userId: number, now: number, afterCommit: (work: () => Promise<void>) => void): Promise<number>;
  /**
   * Moderation of new accounts (moderation/service.ts), in the action's transaction once the account
   * is verified or blocked: resolves its open user-moderation request (approving publishes the held
   * drafts; blocking, with moderation on, tombstones what it published); what it did, for the audit entry.
   */
  moderation?: Record<"approved" | "blocked", (actor: Actor, userId: number, now: number, afterCommit: (work: () => Promise<void>) => void) => Promise<Record<string, unknown>>>;
  /** The user's records and communities, for delete and the administration's user page (admin-delete.ts). */
  owned: OwnedHooks;
  /** Inside the caller's transaction: a password-reset link for the account, its mail handed to `afterCommit` (the accounts service). */
  issuePasswordReset(tx: Db, user: { id: number; email: string }, afterCommit: (work: () => Promise<void>) => void): Promise<void>;
}

export type UserAdminService = ReturnType<typeof createUserAdmin>;

/** `true`/`false` (any letter case) for a filter; absent for none; an error otherwise. */
function readFlag(query: Record<string, unknown>, name: string, errors: FieldError[]): boolean | undefined {
  const raw = query[name];
  if (raw === undefined || raw === "") return undefined;
  const value = String(raw).toLowerCase();
  if (value === "true" || value === "false") return value === "true";
  errors.push({ field: name, messages: ["Must be true or false."] });
  return undefined;
}

/** `created_since`: a day (YYYY-MM-DD, from its start, UTC) or a moment (ISO 8601); absent for none. */
function readSince(raw: unknown, errors: FieldError[]): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const text = String(raw);
  const ms = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(text) ? Date.parse(text) : NaN;
  // Date.parse rolls 2026-02-30 over to March: the day must read back the same.
  if (Number.isNaN(ms) || (text.length === 10 && new Date(ms).toISOString().slice(0, 10) !== text)) {
    errors.push({ field: "created_since", messages: ["Must be a date (YYYY-MM-DD) or an ISO 8601 date and time."] });
    return undefined;
  }
  return ms;
}

function readListQuery(query: AllUsersQuery): { filters: AccountFilters; sort: AllUsersSort } {
  const errors: FieldError[] = [];
  const filters: AccountFilters = {
    active: readFlag(query, "is_active", errors),
    blocked: readFlag(query, "is_blocked", errors),
    verified: readFlag(query, "is_verified", errors),
    confirmed: readFlag(query, "is_confirmed", errors),
    admin: readFlag(query, "is_admin", errors),
    createdSince: readSince(query.created_since, errors),
  };
  const sort = (query.sort || "newest") as AllUsersSort;
  if (!ALL_USERS_SORTS.includes(sort)) errors.push({ field: "sort", messages: [`Must be one of: ${ALL_USERS_SORTS.join(", ")}.`] });
  if (errors.length) throw invalidQuery(errors);
  return { filters, sort };
}

export function createUserAdmin(deps: UserAdminDeps) {
  const { db, clock, links } = deps;
  const columns = [sql`${usersTable.email}`, sql`${usersTable.username}`, sql`${usersTable.fullName}`];

  async function loadUser(rawId: string | number) {
    const id = typeof rawId === "number" ? rawId : /^\d{1,15}$/.test(rawId) ? Number(rawId) : null;
    const row = id === null ? undefined : await store.findUserById(db, id);
    if (!row) throw notFound(`No user with id '${rawId}'.`);
    return row;
  }

  /**
   * One action: administrators only (401/403 first), then the user (404), then the change and its
   * audit entry in one transaction; answers the account as it now is.
   */
  async function act(
    actor: Actor,
    rawId: string | number,
    action: UserAction | "password-reset",
    context: ActionContext,
    change: (user: store.UserRow, tx: Db, now: number, afterCommit: (work: () => Promise<void>) => void) => Promise<Record<string, unknown> | void>,
  ) {
    requireAdmin(actor);
    const user = await loadUser(rawId);
    refusePlaceholder(user);
    const later: (() => Promise<void>)[] = [];
    await db.write(async (tx) => {
      // In the transaction: two administrators demoting each other at once cannot both succeed.
      if (action === "block" || action === "deactivate" || action === "demote") await guardAccount(tx, actor, user, action);
      const now = clock.now();
      const details = (await change(user, tx, now, (work) => later.push(work))) ?? {};
      await deps.audit.record(
        actor,
        { action: `user.${action}`, targetType: "user", targetId: user.id, details: { email: user.email, ...details }, address: context.address ?? null, via: context.via },
        tx,
      );
    });
    for (const work of later) await work();
    return presentManagedUser((await store.findUserById(db, user.id))!, isSelf(actor, user.id), links);
  }

  const update = (tx: Db, user: store.UserRow, fields: Partial<store.NewUserRow>, now: number) => store.updateUser(tx, user.id, fields, now);
  const deletion = createUserDeletion(deps, loadUser);

  return {
    /** Every account (active or not, confirmed or not, blocked or not), filtered by state and words of e-mail, username and name; paged. */
    async searchAllUsers(actor: Actor, query: AllUsersQuery): Promise<SearchResult<ManagedUserJson>> {
      requireAdmin(actor);
      const { filters, sort } = readListQuery(query);
      const page = parsePage(query, LIMITS);
      const { rows, total } = await store.searchAllUsers(db, { filters, words: queryWords(query.q), columns }, sort, page.size, page.offset);
      const params = {
        q: query.q || undefined,
        is_active: filters.active === undefined ? undefined : String(filters.active),
        is_blocked: filters.blocked === undefined ? undefined : String(filters.blocked),
        is_verified: filters.verified === undefined ? undefined : String(filters.verified),
        is_confirmed: filters.confirmed === undefined ? undefined : String(filters.confirmed),
        is_admin: filters.admin === undefined ? undefined : String(filters.admin),
        created_since: query.created_since || undefined,
      };
      return searchEnvelope({
        items: rows.map((row) => presentManagedUser(row, isSelf(actor, row.id), links)),
        total,
        page,
        url: (q) => links.api("/users/all", q),
        params,
        sortBy: sort,
      });
    },

    /** An account by id, as administrators see it (404 when there is none). */
    async readManagedUser(actor: Actor, id: string | number): Promise<ManagedUserJson> {
      requireAdmin(actor);
      return presentManagedUser(await loadUser(id), isSelf(actor, Number(id)), links);
    },

    /** The id of the account with this e-mail address or username (the CLI's `--login`), or 404. */
    async userIdOf(actor: Actor, login: string): Promise<number> {
      requireAdmin(actor);
      const user = (await store.findUserByEmail(db, login)) ?? (await store.findUserByUsername(db, login));
      if (!user) throw notFound(`No account '${login}'.`);
      return user.id;
    },

    /**
     * InvenioRDM's block: blocked_at set and the account deactivated; its sessions end, its tokens
     * answer 403 from now on, and the requests it opened are cancelled.
     */
    block: (actor: Actor, id: string | number, context: ActionContext) =>
      act(actor, id, "block", context, async (user, tx, now, afterCommit) => {
        await update(tx, user, { blockedAt: user.blockedAt ?? now, active: false }, now);
        await deps.endSessions(user.id, tx);
        // Its moderation request is declined before the requests it opened are cancelled.
        const moderated = (await deps.moderation?.blocked(actor, user.id, now, afterCommit)) ?? {};
        return { ...moderated, closed_requests: await deps.closeRequestsOf(user.id, now, afterCommit) };
      }),

    /** Undoes a block and a deactivation: the account may sign in again (its ended sessions stay ended). */
    restore: (actor: Actor, id: string | number, context: ActionContext) =>
      act(actor, id, "restore", context, async (user, tx, now) => {
        await update(tx, user, { blockedAt: null, active: true }, now);
      }),

    /** The account is verified (InvenioRDM's verified_at): its publications skip moderation, and those moderation held are published. */
    approve: (actor: Actor, id: string | number, context: ActionContext) =>
      act(actor, id, "approve", context, async (user, tx, now, afterCommit) => {
        await update(tx, user, { verifiedAt: user.verifiedAt ?? now }, now);
        return deps.moderation?.approved(actor, user.id, now, afterCommit);
      }),

    /** A deactivated account may sign in again; a blocked one is restored instead (400). */
    activate: (actor: Actor, id: string | number, context: ActionContext) =>
      act(actor, id, "activate", context, async (user, tx, now) => {
        if (user.blockedAt !== null) throw badRequest("The account is blocked: restore it to let it sign in again.");
        await update(tx, user, { active: true }, now);
      }),

    /** The account can no longer sign in or use its tokens, and its sessions end; nothing else changes. */
    deactivate: (actor: Actor, id: string | number, context: ActionContext) =>
      act(actor, id, "deactivate", context, async (user, tx, now) => {
        await update(tx, user, { active: false }, now);
        await deps.endSessions(user.id, tx);
      }),

    /** Makes the account an administrator (its next request has the role; no API route: the CLI and the pages). */
    promote: (actor: Actor, id: string | number, context: ActionContext) =>
      act(actor, id, "promote", context, async (user, tx, now) => {
        await update(tx, user, { isAdmin: true }, now);
      }),

    /** A password-reset link (/lost-password's) mailed to an active account; audited as `user.password-reset`. */
    sendPasswordReset: (actor: Actor, id: string | number, context: ActionContext) =>
      act(actor, id, "password-reset", context, async (user, tx, _now, afterCommit) => {
        // As /lost-password: only an account that may sign in gets a link (resetting would be refused anyway).
        if (user.blockedAt !== null || !user.active) throw badRequest("The account is blocked or deactivated: restore or activate it before sending a password-reset link.");
        await deps.issuePasswordReset(tx, user, afterCommit);
      }),

    /** The delete step's numbers (admin-delete.ts). */
    deletePreview: deletion.preview,
    /** Deletes the account, its records kept under the placeholder owner or removed (admin-delete.ts). */
    delete: deletion.delete,

    /** Takes the administrator role away (not from oneself). */
    demote: (actor: Actor, id: string | number, context: ActionContext) =>
      act(actor, id, "demote", context, async (user, tx, now) => {
        await update(tx, user, { isAdmin: false }, now);
      }),
  };
}
