// Grants and secret links written by accepted access requests, inside the requests engine's
// transaction (requests/types.ts AccessWriter); built from the store before the engine.
import { notFound } from "../core/errors";
import { newUuid } from "../core/ids";
import type { Db } from "../db/connection";
import type { AccessWriter } from "../requests/types";
import type { LinkTokens } from "./tokens";
import * as store from "./store";

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
