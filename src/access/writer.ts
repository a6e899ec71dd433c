// Grants and secret links written by accepted access requests, inside the requests engine's
// transaction (access-requests/request-types.ts); built from the store before the engine.
import { notFound } from "../core/errors";
import { newUuid } from "../core/ids";
import type { Db } from "../db/sqlite/connection";
import type { LinkTokens } from "./tokens";
import * as store from "./store";

/** Writes grants and secret links inside the caller's transaction. */
export interface AccessWriter {
  /** Grants the user `permission` on the record's parent (every version) until `expiresAt` (ms; null: no end); replaces the user's grant there. */
  grantUser(input: { recordId: string; userId: string; permission: "view" | "preview" | "edit" | "manage"; expiresAt: number | null; origin: string; now: number }): void;
  /** A secret link to the record's parent; returns its id and token (shown once). */
  createLink(input: { recordId: string; permission: "view" | "preview" | "edit"; expiresAt: number | null; description: string; origin: string; now: number }): {
    id: string;
    token: string;
  };
}

function parentOf(db: Db, recordId: string): string {
  const parentId = store.findParentIdOf(db, recordId);
  if (!parentId) throw notFound("The persistent identifier does not exist.");
  return parentId;
}

export function createAccessWriter(db: Db, tokens: LinkTokens): AccessWriter {
  return {
    grantUser({ recordId, userId, permission, expiresAt, origin, now }) {
      store.upsertGrant(db, { parentId: parentOf(db, recordId), subjectType: "user", subjectId: userId, permission, origin, expiresAt, created: now, updated: now });
    },

    createLink({ recordId, permission, expiresAt, description, origin, now }) {
      const { token, hash } = tokens.issue();
      const id = newUuid();
      store.insertLink(db, { id, parentId: parentOf(db, recordId), permission, description, origin, tokenHash: hash, expiresAt, created: now });
      return { id, token };
    },
  };
}
