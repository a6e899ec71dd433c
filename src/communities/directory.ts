// The narrow view of communities other modules consume (the requests engine, members): built from
// the store alone, so it exists before the services that need each other's answers.
import type { Actor } from "../core/actor";
import type { Db } from "../db/connection";
import { sql } from "drizzle-orm";
import type { CommunitySummary, Role } from "./model";
import { strongerRole } from "./policy";
import type { Links } from "../core/links";
import { presentCommunity, type CommunityJson } from "./present";
import * as store from "./store";
import type { CommunityRow } from "./store";

/** The narrow view of communities the requests and members engines consume. */
export interface CommunityDirectory {
  /** The community by UUID or slug, or null when there is none (with its member policy, which the members module needs). */
  find(idOrSlug: string): CommunitySummary | null;
  /** The actor's role in each community it belongs to (directly or through one of its groups — Actor.groupIds); empty for anonymous. */
  rolesOf(actor: Actor): Map<string, "reader" | "curator" | "manager" | "owner">;
  /** E-mail addresses of the community's curators, managers and owners (notification recipients). */
  curatorEmails(communityId: string): string[];
  /** The public ones among these communities as their JSON, in the order given (a record's `parent.communities.entries`). */
  publicEntries(ids: string[]): CommunityJson[];
}

export const summaryOf = (row: CommunityRow): CommunitySummary => ({
  id: row.id,
  slug: row.slug,
  title: String(row.metadata.title ?? ""),
  visibility: row.visibility === "restricted" ? "restricted" : "public",
  memberPolicy: row.memberPolicy === "closed" ? "closed" : "open",
});

export function createCommunityDirectory(db: Db, links: Links): CommunityDirectory {
  return {
    find(idOrSlug) {
      const row = store.findCommunity(db, idOrSlug, sql`1 = 1`);
      return row ? summaryOf(row) : null;
    },
    rolesOf(actor) {
      const roles = new Map<string, Role>();
      for (const r of store.listRoleRows(db, actor)) roles.set(r.communityId, strongerRole(roles.get(r.communityId), r.role));
      return roles;
    },
    curatorEmails: (communityId) => store.listMemberEmails(db, communityId, ["curator", "manager", "owner"]),
    publicEntries: (ids) =>
      ids.flatMap((id) => {
        const row = store.findCommunityById(db, id);
        return row && row.visibility === "public" ? [presentCommunity(row, links)] : [];
      }),
  };
}
