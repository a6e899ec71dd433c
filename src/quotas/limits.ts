// The quotas in force where bytes are about to be stored, and the refusals the upload paths share
// (plain content, multipart parts and commit, fetched files): one rule for all of them.
import type { Deps } from "../core/deps";
import { badRequest, payloadTooLarge, type HttpError } from "../core/errors";
import type { Db } from "../db/port";
import * as store from "./store";

/** One quota over the bytes being written: the draft's bucket, or its owner's total. */
export interface Limit {
  scope: "record" | "user";
  quota: number;
  /** Bytes still free under it (never negative). */
  left: number;
}

/** What one file of a draft may still take. */
export interface Room {
  maxFileSize: number;
  limits: Limit[];
}

export type QuotaLimits = ReturnType<typeof createQuotaLimits>;

const NAMES = { record: "this record's storage quota", user: "the owner's storage quota (all their drafts and records together)" };

/** The 400 an upload beyond a quota gets: which quota, and what is left under it. */
export function quotaExceeded(limit: Limit, size: number | null, files = 1): HttpError {
  const what = size === null ? "This upload" : files > 1 ? `These ${files} files (${size} bytes together)` : `This file (${size} bytes)`;
  return badRequest(`${what} would exceed ${NAMES[limit.scope]} of ${limit.quota} bytes: ${limit.left} bytes are left.`);
}

export function createQuotaLimits(deps: Pick<Deps, "config">) {
  const { config } = deps;

  /** The effective quotas of a draft or record and of a user (row, else the configured default). */
  async function recordQuota(db: Db, id: string) {
    const row = await store.findQuota(db, "record", id);
    return { row, quotaSize: row?.quotaSize ?? config.RDM_FILES_DEFAULT_QUOTA_SIZE, maxFileSize: row?.maxFileSize ?? config.RDM_FILES_DEFAULT_MAX_FILE_SIZE };
  }
  async function userQuota(db: Db, userId: number) {
    const row = await store.findQuota(db, "user", String(userId));
    return { row, quotaSize: row?.quotaSize ?? config.RDM_FILES_DEFAULT_USER_QUOTA_SIZE, maxFileSize: row?.maxFileSize ?? null };
  }

  return {
    recordQuota,
    userQuota,

    /**
     * The room left for entry `entryId` (null: a new one) of draft `recordId`, the entry's own bytes
     * not counted (they are being replaced). `db`: the transaction when called inside one.
     */
    async room(db: Db, recordId: string, entryId: number | null): Promise<Room> {
      const record = await recordQuota(db, recordId);
      const limits: Limit[] = [];
      const push = (scope: Limit["scope"], quota: number, held: number) => limits.push({ scope, quota, left: Math.max(0, quota - held) });
      push("record", record.quotaSize, await store.sumHeld(db, store.ofRecord(recordId), entryId));
      let maxFileSize = record.maxFileSize;
      const ownerId = (await store.findOwner(db, recordId))?.ownerId ?? null;
      if (ownerId !== null) {
        const user = await userQuota(db, ownerId);
        if (user.quotaSize > 0) push("user", user.quotaSize, await store.sumHeld(db, store.ofUser(db, ownerId), entryId));
        if (user.maxFileSize !== null) maxFileSize = Math.min(maxFileSize, user.maxFileSize);
      }
      return { maxFileSize, limits };
    },

    /**
     * The refusal for `size` more bytes in `files` files (413 when one file is over the largest
     * allowed, 400 over a quota), or null.
     */
    refusal(room: Room, size: number, files = 1): HttpError | null {
      if (files === 1 && size > room.maxFileSize) return payloadTooLarge(room.maxFileSize);
      const over = room.limits.find((l) => size > l.left);
      return over ? quotaExceeded(over, size, files) : null;
    },

    /** Most bytes one stream may bring: where a receive stops. */
    maxBytes: (room: Room) => Math.min(room.maxFileSize, ...room.limits.map((l) => l.left)),

    /** Why a stream was stopped at maxBytes: the tightest limit's refusal. */
    overflow(room: Room): HttpError {
      const tightest = [...room.limits].sort((a, b) => a.left - b.left)[0];
      return tightest && tightest.left < room.maxFileSize ? quotaExceeded(tightest, null) : payloadTooLarge(room.maxFileSize);
    },
  };
}
