// The narrow view of record access other modules consume before the access service exists: the
// records policy asks what a caller's grants and secret link give it on a record, access requests
// read a record's access settings. Built from the store alone, like the communities and requests directories.
import type { Actor } from "../core/actor";
import { newSecret } from "../core/ids";
import type { Db } from "../db/port";
import { presentGrant, presentLink, type GrantJson, type LinkJson } from "./present";
import { settingsJson, type AccessSettings } from "./settings";
import { createLinkTokens, type LinkTokens } from "./tokens";
import * as store from "./store";

/** Grant and link permissions, strongest first (InvenioRDM's ladder). */
export const PERMISSIONS = ["manage", "edit", "preview", "view"] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const strongest = (permissions: string[]): Permission | null => PERMISSIONS.find((p) => permissions.includes(p)) ?? null;

export interface AccessDirectory {
  /** The strongest permission the actor's unexpired grants (its own and its groups') and its secret link give on the parent; null for none. */
  permissionOf(actor: Actor, parentId: string, now: number): Promise<Permission | null>;
  /** Secret-link tokens, signed with the server's key. */
  tokens: LinkTokens;
  /** `parent.access.grants` and `.links` (without tokens), for callers who manage the record. */
  sharesOf(parentId: string): Promise<{ grants: GrantJson[]; links: LinkJson[] }>;
  /** `parent.access.settings` of the parent, with the defaults for what is not set (no permission check: callers have authorised). */
  settingsOf(parentId: string): Promise<AccessSettings>;
}

export function createAccessDirectory(db: Db, clock: { now(): number }): AccessDirectory {
  // Read once and kept. The value is kept, not the read's Promise: a transaction awaiting another
  // request's read still waiting for the connection would wait for itself (see db/port.ts).
  let key: string | undefined;
  const tokens = createLinkTokens(async () => (key ??= await store.signingKey(db, "secret-links", newSecret, clock.now())));
  return {
    tokens,
    async permissionOf(actor, parentId, now) {
      const held: string[] = [];
      if (actor.kind === "user") held.push(...(await store.listHolderGrants(db, parentId, actor.userId, actor.groupIds, now)).map((g) => g.permission));
      if (actor.linkToken) {
        const hash = await tokens.hashOf(actor.linkToken);
        const link = hash ? await store.findValidLink(db, parentId, hash, now) : null;
        if (link) held.push(link.permission);
      }
      return strongest(held);
    },
    sharesOf: async (parentId) => ({
      grants: (await store.listGrants(db, parentId)).map(presentGrant),
      links: (await store.listLinks(db, parentId)).map(presentLink),
    }),
    settingsOf: async (parentId) => settingsJson(await store.readSettings(db, parentId)),
  };
}
