// Moderation of new accounts: holding a publication of an account nobody approved yet (one open
// user-moderation request per account, each held draft joining it), and what approving and
// blocking an account (users/admin.ts) do about moderation inside their transaction.
import { requireAdmin, systemActor, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import type { RequestsService } from "../requests/service";
import type { RequestView } from "../requests/request-type";
import { heldDrafts, MODERATORS, USER_MODERATION, type ModerationOutcome } from "./model";
import { mustWait, type OwnerFacts } from "./policy";

/** The tombstone of a blocked account's records: InvenioRDM's `spam` removal reason. */
const BLOCKED_TOMBSTONE = { removal_reason: { id: "spam" }, note: "The account that published it was blocked by an administrator." };

export interface ModerationDeps extends Deps {
  requests: Pick<RequestsService, "createRequest" | "findRequests" | "updatePayload" | "runWithin">;
  /** The account's facts (users service); null when there is none. */
  findUser(id: number): Promise<(OwnerFacts & { email: string }) | null>;
  /** Tombstones every published record the user owns, in the caller's transaction (records deletion); how many. */
  deleteOwnedRecords(actor: Actor, userId: number, tombstone: Record<string, unknown>): Promise<number>;
}

export type ModerationService = ReturnType<typeof createModerationService>;

export function createModerationService(deps: ModerationDeps) {
  const { db, config, clock, requests } = deps;
  const user = (id: number) => ({ kind: "user" as const, id: String(id) });

  /** The account's open user-moderation request, or null. */
  async function openRequestOf(userId: number): Promise<RequestView | null> {
    return (await requests.findRequests({ type: USER_MODERATION, topic: user(userId), openOnly: true, limit: 1 }))[0] ?? null;
  }

  return {
    /** Administrators: the account's open user-moderation request and the drafts it holds, or null (the Users screen). */
    async pendingOf(actor: Actor, userId: number): Promise<{ request: RequestView; drafts: string[] } | null> {
      requireAdmin(actor);
      const open = await openRequestOf(userId);
      return open ? { request: open, drafts: heldDrafts(open.payload) } : null;
    },

    /**
     * Publishing's first step (records/publish.ts, the caller authorised and validated): true when
     * the draft must wait for an administrator, after adding it to its owner's open request (made
     * and submitted now if there is none: one per account, checked and written in one transaction).
     */
    async hold(actor: Actor, draft: { id: string; ownerId: number | null }): Promise<boolean> {
      if (config.ACCOUNTS_MODERATION !== "first-publish" || draft.ownerId === null) return false;
      const ownerId = draft.ownerId;
      // Checked in the transaction that writes: an approval cannot slip between the two.
      return db.write(async () => {
        if (!mustWait(config.ACCOUNTS_MODERATION, actor, await deps.findUser(ownerId))) return false;
        const open = await openRequestOf(ownerId);
        if (!open) {
          await requests.createRequest(systemActor, {
            type: USER_MODERATION,
            createdBy: user(ownerId),
            receiver: MODERATORS,
            topic: user(ownerId),
            payload: { drafts: [draft.id] },
            submit: true,
          });
        } else if (!heldDrafts(open.payload).includes(draft.id)) {
          await requests.updatePayload(open.id, { ...open.payload, drafts: [...heldDrafts(open.payload), draft.id] }, clock.now());
        }
        return true;
      });
    },

    /**
     * userAdmin.approve, in its transaction after the account is verified: accepts the open
     * request, whose hook publishes the held drafts (the account being verified, it approves nothing again).
     */
    async approved(actor: Actor, userId: number, now: number, afterCommit: (work: () => Promise<void>) => void): Promise<ModerationOutcome> {
      const open = await openRequestOf(userId);
      if (!open) return {};
      await requests.runWithin(actor, open.id, "accept", now, afterCommit);
      return { moderation_request: open.id };
    },

    /**
     * userAdmin.block, in its transaction after the account is blocked: declines the open request
     * (its drafts stay unpublished) and, with moderation on, tombstones what the account published.
     */
    async blocked(actor: Actor, userId: number, now: number, afterCommit: (work: () => Promise<void>) => void): Promise<ModerationOutcome> {
      const open = await openRequestOf(userId);
      if (open) await requests.runWithin(actor, open.id, "decline", now, afterCommit);
      if (config.ACCOUNTS_MODERATION !== "first-publish") return open ? { moderation_request: open.id } : {};
      const tombstoned = await deps.deleteOwnedRecords(actor, userId, BLOCKED_TOMBSTONE);
      return { ...(open ? { moderation_request: open.id } : {}), tombstoned };
    },
  };
}
