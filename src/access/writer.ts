// Grants and secret links written by accepted access requests, inside the requests engine's
// transaction (access-requests/request-types.ts); built from the store before the engine.
import { notFound } from "../core/errors";
import { newUuid } from "../core/ids";
import type { Db } from "../db/port";
import type { LinkTokens } from "./tokens";
import * as store from "./store";

/** Writes grants and secret links inside the caller's transaction. */
export interface AccessWriter {
  /** Grants the user `permission` on the record's parent (every version) until `expiresAt` (ms; null: no end); replaces the user's grant there. */
  grantUser(input: { recordId: string; userId: string; permission: "view" | "preview" | "edit" | "manage"; expiresAt: number | null; origin: string; now: number }): Promise<void>;
  /** A secret link to the record's parent; returns its id and token (shown once). */
  createLink(input: { recordId: string; permission: "view" | "preview" | "edit"; expiresAt: number | null; description: string; origin: string; now: number }): Promise<{
    id: string;
    token: string;
  }>;
}

async function parentOf(db: Db, recordId: string): Promise<string> {
  const parentId = await store.findParentIdOf(db, recordId);
  if (!parentId) throw notFound("The persistent identifier does not exist.");
  return parentId;
}

export function createAccessWriter(db: Db, tokens: LinkTokens): AccessWriter {
  return {
    async grantUser({ recordId, userId, permission, expiresAt, origin, now }) {
      await store.upsertGrant(db, { parentId: await parentOf(db, recordId), subjectType: "user", subjectId: userId, permission, origin, expiresAt, created: now, updated: now });
    },

    async createLink({ recordId, permission, expiresAt, description, origin, now }) {
      const { token, hash } = await tokens.issue();
      const id = newUuid();
      await store.insertLink(db, { id, parentId: await parentOf(db, recordId), permission, description, origin, tokenHash: hash, expiresAt, created: now });
      return { id, token };
    },
  };
}
