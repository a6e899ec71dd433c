// Deleting an account (administrators): its drafts go, its published records are kept under the
// placeholder owner or removed with tombstones (reason `spam`), its open requests are cancelled, and
// its row goes with what cascades from it (tokens, sessions, linked identities, memberships, sign-ins)
// — one transaction, audited as `user.delete`. Also the guards every way in shares: the last active
// administrator keeps the role and the account, and nobody blocks, demotes or deletes themself.
import { requireAdmin, type Actor } from "../core/actor";
import { badRequest, validationError } from "../core/errors";
import type { Db } from "../db/port";
import type { AuditService } from "../audit/service";
import type { Deps } from "../core/deps";
import { DELETE_RECORDS_CHOICES, type ActionContext, type DeleteRecordsChoice } from "./model";
import { isSelf } from "./policy";
import * as store from "./store";

/** What delete and the user's page ask of the records and members modules (app.ts wires them). */
export interface OwnedHooks {
  /** Published records (not deleted) and drafts the user owns. */
  countOwned(userId: number): Promise<{ records: number; drafts: number }>;
  /** Inside the caller's transaction: drafts deleted, published records kept or tombstoned, every parent handed to `placeholderId`. */
  handOver(
    actor: Actor,
    userId: number,
    placeholderId: number,
    choice: DeleteRecordsChoice,
    now: number,
    afterCommit: (work: () => Promise<void>) => void,
  ): Promise<{ records: number; drafts: number }>;
  /** The user's communities with their role, and whether they are each one's only owner. */
  communitiesOf(actor: Actor, userId: number, limit: number): Promise<{ communities: { slug: string; title: string; onlyOwner: boolean }[]; total: number }>;
}

/** What deleting needs (users/admin.ts's UserAdminDeps has it all). */
export interface DeletionDeps extends Deps {
  audit: Pick<AuditService, "record">;
  closeRequestsOf(userId: number, now: number, afterCommit: (work: () => Promise<void>) => void): Promise<number>;
  owned: OwnedHooks;
}

/** How the placeholder owner shows wherever an owner is shown. */
export const PLACEHOLDER_NAME = "Deleted user";
/** Not an address EMAIL_PATTERN accepts, so no account can ever be made with it. */
const PLACEHOLDER_EMAIL = "deleted-user@placeholder";
/** Every membership is read for the only-owner check (a person is in few communities). */
const ALL_COMMUNITIES = 100_000;

/** 400 for the placeholder owner: it is no person's account and takes no action. */
export function refusePlaceholder(user: store.UserRow): void {
  if (user.isPlaceholder) throw badRequest("This is the placeholder owner of deleted users' records: it cannot be changed or deleted.");
}

/**
 * Inside the action's transaction: the last active administrator is not blocked, deactivated,
 * demoted or deleted (the repository would have nobody to run it), whoever asks and however; and
 * nobody does it to themself. The last-administrator refusal comes first: it is the reason that holds.
 */
export async function guardAccount(tx: Db, actor: Actor, user: store.UserRow, action: "block" | "deactivate" | "demote" | "delete"): Promise<void> {
  const activeAdmin = user.isAdmin && user.active && user.blockedAt === null;
  if (activeAdmin && (await store.countActiveAdmins(tx)) <= 1) {
    throw badRequest(`${user.email} is the last active administrator: make another account an administrator before you ${action} this one.`);
  }
  if (isSelf(actor, user.id)) throw badRequest(`You cannot ${action} your own account: ask another administrator.`);
}

export function createUserDeletion(deps: DeletionDeps, loadUser: (rawId: string | number) => Promise<store.UserRow>) {
  const { db, clock } = deps;

  /** The placeholder owner, made the first time an account's records are handed to it. */
  async function placeholderOf(tx: Db, now: number) {
    const found = await store.findPlaceholder(tx);
    if (found) return found;
    return store.insertUser(tx, {
      email: PLACEHOLDER_EMAIL,
      fullName: PLACEHOLDER_NAME,
      // Never signs in: no password, inactive, not confirmed, never listed (users/policy.ts, store.ts).
      active: false,
      isPlaceholder: true,
      visibility: "restricted",
      created: now,
      updated: now,
    });
  }

  /** The communities the user alone owns, named as `title (slug)`. */
  const soleOwned = async (actor: Actor, userId: number) =>
    (await deps.owned.communitiesOf(actor, userId, ALL_COMMUNITIES)).communities.filter((c) => c.onlyOwner).map((c) => `${c.title} (${c.slug})`);

  return {
    /** What the delete step says: the account, its published records and drafts, the communities it alone owns (which refuse the delete). */
    async preview(actor: Actor, rawId: string | number) {
      requireAdmin(actor);
      const user = await loadUser(rawId);
      refusePlaceholder(user);
      const owned = await deps.owned.countOwned(user.id);
      return { user, records: owned.records, drafts: owned.drafts, soleOwnerOf: await soleOwned(actor, user.id) };
    },

    /**
     * Deletes the account. `records`: `keep` (the published records stay, owned by the placeholder)
     * or `remove` (tombstoned with the reason `spam`, then owned by the placeholder too, as a tombstone
     * keeps its parent); there is no default. Refused (400) for the last active administrator, for
     * oneself, and while the account is the only owner of a community (naming them): a community
     * must not be left without an owner, and choosing its next owner is a person's decision.
     */
    async delete(actor: Actor, rawId: string | number, options: { records?: unknown }, context: ActionContext) {
      requireAdmin(actor);
      const choice = options.records;
      if (typeof choice !== "string" || !(DELETE_RECORDS_CHOICES as readonly string[]).includes(choice)) {
        throw validationError([{ field: "records", messages: ["Choose what happens to the published records: keep (under a placeholder owner) or remove (tombstoned as spam)."] }]);
      }
      const user = await loadUser(rawId);
      refusePlaceholder(user);
      const later: (() => Promise<void>)[] = [];
      const afterCommit = (work: () => Promise<void>) => void later.push(work);
      const details = await db.write(async (tx) => {
        await guardAccount(tx, actor, user, "delete");
        const sole = await soleOwned(actor, user.id);
        if (sole.length) throw badRequest(`${user.email} is the only owner of ${sole.join(", ")}: give each another owner (or delete it) first.`);
        const now = clock.now();
        // Its reviews are cancelled first, so that no draft is held by one when the drafts go.
        const closed = await deps.closeRequestsOf(user.id, now, afterCommit);
        const placeholder = await placeholderOf(tx, now);
        const handed = await deps.owned.handOver(actor, user.id, placeholder.id, choice as DeleteRecordsChoice, now, afterCommit);
        await store.deleteUser(tx, user.id);
        const details = { email: user.email, records: choice, published: handed.records, drafts: handed.drafts, closed_requests: closed, placeholder: placeholder.id };
        await deps.audit.record(actor, { action: "user.delete", targetType: "user", targetId: user.id, details, address: context.address ?? null, via: context.via }, tx);
        return details;
      });
      for (const work of later) await work();
      return { id: String(user.id), ...details };
    },
  };
}
