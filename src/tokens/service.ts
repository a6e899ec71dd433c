// Personal access tokens: made for a user, shown once, stored hashed, revocable.
import { forbidden, notFound, validationError } from "../core/errors";
import { isAdmin, requireUser, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { hashSecret, newSecret } from "../core/ids";
import { BLOCKED_MESSAGE } from "../users/policy";
import * as store from "./store";

/** Scopes that exist; InvenioRDM ships only `user:email` by default. */
export const KNOWN_SCOPES = ["user:email"];

/** Writing last_used on every request would make every read a write; once a minute is enough. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type TokensService = ReturnType<typeof createTokensService>;

export function createTokensService(deps: Deps) {
  const { db, clock } = deps;

  function requireOwnerOrAdmin(actor: Actor, userId: number) {
    requireUser(actor);
    if (!isAdmin(actor) && !(actor.kind === "user" && actor.userId === userId)) throw forbidden();
  }

  return {
    /** Returns the row and the secret; the secret is not stored and cannot be shown again. */
    async createToken(actor: Actor, input: { userId: number; name: string; scopes?: string[]; expiresAt?: number | null }) {
      requireOwnerOrAdmin(actor, input.userId);
      const name = input.name.trim();
      const scopes = [...new Set(input.scopes ?? [])];
      const errors = [];
      if (!name || name.length > 100) errors.push({ field: "name", messages: ["A token name has 1 to 100 characters."] });
      const unknown = scopes.filter((s) => !KNOWN_SCOPES.includes(s));
      if (unknown.length) errors.push({ field: "scopes", messages: [`Unknown scope(s): ${unknown.join(", ")}. Known: ${KNOWN_SCOPES.join(", ")}.`] });
      if (errors.length) throw validationError(errors);
      const secret = newSecret();
      const row = await store.insertToken(db, {
        userId: input.userId,
        name,
        secretHash: hashSecret(secret),
        scopes,
        created: clock.now(),
        expiresAt: input.expiresAt ?? null,
      });
      return { token: row, secret };
    },

    async listTokens(actor: Actor, userId: number) {
      requireOwnerOrAdmin(actor, userId);
      return store.listTokensOfUser(db, userId);
    },

    async revokeToken(actor: Actor, tokenId: number) {
      const token = await store.findTokenById(db, tokenId);
      if (!token) throw notFound(`No token with id ${tokenId}.`);
      requireOwnerOrAdmin(actor, token.userId);
      await store.updateTokenRevoked(db, tokenId, clock.now());
      return (await store.findTokenById(db, tokenId))!;
    },

    /** The groups a user belongs to (an actor's `groupIds`, for sessions too). */
    groupIdsOf: (userId: number) => store.listGroupIdsOfUser(db, userId),

    /**
     * The actor a secret stands for, or null when unknown, revoked, expired or its user inactive;
     * a blocked user's token is a 403 (it is theirs, and refused): every request that sends it fails.
     */
    async authenticate(secret: string): Promise<Actor | null> {
      const found = await store.findActiveTokenByHash(db, hashSecret(secret));
      if (!found) return null;
      const now = clock.now();
      const { token, user } = found;
      if (user.blockedAt !== null) throw forbidden(BLOCKED_MESSAGE);
      if (!user.active) return null;
      if (token.expiresAt !== null && token.expiresAt <= now) return null;
      if (token.lastUsed === null || now - token.lastUsed >= LAST_USED_RESOLUTION_MS) await store.updateTokenLastUsed(db, token.id, now);
      return {
        kind: "user",
        userId: user.id,
        isAdmin: user.isAdmin,
        groupIds: await store.listGroupIdsOfUser(db, user.id),
        scopes: token.scopes,
        tokenId: token.id,
      };
    },
  };
}
