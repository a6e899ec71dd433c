// Storage quotas: administrators set a record's bucket quota or a user's total (InvenioRDM's
// set_quota and set_user_quota), each audited in the change's transaction; owners and
// administrators read a quota with its usage (the deposit page, the profile, the CLI).
import { requireAdmin, requireUser, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { notFound } from "../core/errors";
import type { AuditService } from "../audit/service";
import type { QuotaLimits } from "./limits";
import { parseQuotaBody, type QuotaInput, type QuotaKind, type QuotaUsage } from "./model";
import { canReadRecordUsage, canReadUserUsage } from "./policy";
import * as store from "./store";

export interface QuotasDeps extends Deps {
  audit: Pick<AuditService, "record">;
  limits: QuotaLimits;
  /** Whether user `id` exists. */
  userExists(id: number): Promise<boolean>;
  /** Whether the actor manages the files of draft `id` (its owner, or someone it is shared with to edit). */
  managesDraft(actor: Actor, id: string): Promise<boolean>;
}

/** Where an administrator's change came from, for the audit log. */
export interface QuotaContext {
  via: "web" | "api" | "cli";
  address?: string | null;
}

export type QuotasService = ReturnType<typeof createQuotasService>;

/** A user id from a path or a form: digits only, else no such user. */
function userIdOf(raw: string | number): number {
  const id = typeof raw === "number" ? raw : /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound(`No user with id '${raw}'.`);
  return id;
}

export function createQuotasService(deps: QuotasDeps) {
  const { db, clock, limits } = deps;

  /** Administrators only (401/403), then the target (404), then the body (400); the row and its audit entry in one transaction. */
  async function set(actor: Actor, kind: QuotaKind, targetId: string, input: QuotaInput, context: QuotaContext) {
    await db.write(async (tx) => {
      const previous = await store.findQuota(tx, kind, targetId);
      await store.upsertQuota(tx, {
        kind,
        targetId,
        quotaSize: input.quotaSize,
        maxFileSize: input.maxFileSize,
        notes: input.notes,
        updated: clock.now(),
        updatedBy: actor.kind === "user" ? actor.userId : null,
      });
      await deps.audit.record(
        actor,
        {
          action: `${kind}.quota`,
          targetType: kind,
          targetId,
          details: {
            quota_size: input.quotaSize,
            max_file_size: input.maxFileSize,
            notes: input.notes,
            previous: previous ? { quota_size: previous.quotaSize, max_file_size: previous.maxFileSize } : null,
          },
          address: context.address ?? null,
          via: context.via,
        },
        tx,
      );
    });
    // InvenioRDM answers {} (200); the quota as stored is a superset its clients ignore.
    return { quota_size: input.quotaSize, max_file_size: input.maxFileSize, notes: input.notes };
  }

  async function recordUsage(id: string): Promise<QuotaUsage> {
    const quota = await limits.recordQuota(db, id);
    const used = await store.sumHeld(db, store.ofRecord(id), null);
    return { quota_size: quota.quotaSize, max_file_size: quota.maxFileSize, used, notes: quota.row?.notes ?? "", custom: quota.row !== null };
  }

  async function userUsage(userId: number): Promise<QuotaUsage> {
    const quota = await limits.userQuota(db, userId);
    const used = await store.sumHeld(db, store.ofUser(db, userId), null);
    const maxFileSize = quota.maxFileSize ?? deps.config.RDM_FILES_DEFAULT_MAX_FILE_SIZE;
    return { quota_size: quota.quotaSize, max_file_size: maxFileSize, used, notes: quota.row?.notes ?? "", custom: quota.row !== null };
  }

  return {
    /** `POST /api/records/{id}/quota`: the bucket quota of draft or record `id`. */
    async setRecordQuota(actor: Actor, id: string, body: unknown, context: QuotaContext) {
      requireAdmin(actor);
      if (!(await store.findOwner(db, id))) throw notFound("The persistent identifier does not exist.");
      return set(actor, "record", id, parseQuotaBody(body), context);
    },

    /** `POST /api/records/users/{id}/quota`: the most bytes user `id`'s files take together (0: no limit). */
    async setUserQuota(actor: Actor, rawId: string | number, body: unknown, context: QuotaContext) {
      requireAdmin(actor);
      const userId = userIdOf(rawId);
      if (!(await deps.userExists(userId))) throw notFound(`No user with id '${rawId}'.`);
      return set(actor, "user", String(userId), parseQuotaBody(body), context);
    },

    /** A draft's or record's quota and the bytes it holds, for those who manage its files and administrators; null for anyone else. */
    async readRecordUsage(actor: Actor, id: string): Promise<QuotaUsage | null> {
      if (!canReadRecordUsage(actor, await deps.managesDraft(actor, id))) return null;
      if (!(await store.findOwner(db, id))) throw notFound("The persistent identifier does not exist.");
      return recordUsage(id);
    },

    /** A user's quota and their files' total: the user themselves and administrators (401/403 otherwise, 404 no such user). */
    async readUserUsage(actor: Actor, rawId: string | number): Promise<QuotaUsage> {
      requireUser(actor);
      const userId = userIdOf(rawId);
      canReadUserUsage(actor, userId);
      if (!(await deps.userExists(userId))) throw notFound(`No user with id '${rawId}'.`);
      return userUsage(userId);
    },
  };
}
