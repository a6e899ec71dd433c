// The narrow view of communities other modules consume (the requests engine, members): built from
// the store alone, so it exists before the services that need each other's answers.
import type { Actor } from "../core/actor";
import type { Db } from "../db/port";
import { sql } from "drizzle-orm";
import type { CommunitySummary } from "./model";
import { canSeeCommunity, readableCommunitiesFilter, visibilityOf } from "./policy";
import { atLeast, ROLES, strongerRole, type Role } from "./roles";
import type { Links } from "../core/links";
import { presentCommunity, type CommunityJson } from "./present";
import * as store from "./store";
import type { CommunityRow } from "./store";

/** Who hears of a community's requests: its curators, managers and owners. */
const CURATING_ROLES = ROLES.filter((role) => atLeast(role, "curator"));

/** The narrow view of communities the requests and members engines consume. */
export interface CommunityDirectory {
  /** The community by UUID or slug, or null when there is none (with its member policy, which the members module needs). */
  find(idOrSlug: string): Promise<CommunitySummary | null>;
  /**
   * The community when the actor may see it (communities/policy.ts canSeeCommunity), else null: a
   * restricted community is not disclosed to outsiders. `roles`: the actor's rolesOf, when the caller holds it already.
   */
  findReadable(actor: Actor, idOrSlug: string, roles?: ReadonlyMap<string, Role>): Promise<CommunitySummary | null>;
  /** The actor's role in each community it belongs to (directly or through one of its groups — Actor.groupIds); empty for anonymous. */
  rolesOf(actor: Actor): Promise<Map<string, Role>>;
  /** E-mail addresses of the community's curators, managers and owners (notification recipients). */
  curatorEmails(communityId: string): Promise<string[]>;
  /**
   * Those of `ids` the actor may read (readableCommunitiesFilter: public ones, its own directly or
   * through a group, every one for administrators) as their JSON, in the order given (a record's
   * `parent.communities.entries`).
   */
  readableEntries(actor: Actor, ids: string[]): Promise<CommunityJson[]>;
  /**
   * Titles of those of `ids` the actor may read (public ones, its own directly or through a group,
   * every one for administrators), by id; the others are left out (a record search's communities facet).
   */
  readableTitles(actor: Actor, ids: string[]): Promise<Map<string, string>>;
}

export const summaryOf = (row: CommunityRow): CommunitySummary => ({
  id: row.id,
  slug: row.slug,
  title: String(row.metadata.title ?? ""),
  visibility: visibilityOf(row.visibility),
  memberPolicy: row.memberPolicy === "closed" ? "closed" : "open",
  recordPolicy: row.recordPolicy === "closed" ? "closed" : "open",
  membersVisibility: row.membersVisibility === "restricted" ? "restricted" : "public",
  reviewPolicy: row.reviewPolicy === "open" || row.reviewPolicy === "members" ? row.reviewPolicy : "closed",
});

export function createCommunityDirectory(db: Db, links: Links): CommunityDirectory {
  async function find(idOrSlug: string) {
    const row = await store.findCommunity(db, idOrSlug, sql`1 = 1`);
    return row ? summaryOf(row) : null;
  }
  async function rolesOf(actor: Actor) {
    const roles = new Map<string, Role>();
    for (const r of await store.listRoleRows(db, actor)) roles.set(r.communityId, strongerRole(roles.get(r.communityId), r.role));
    return roles;
  }
  return {
    find,
    rolesOf,
    async findReadable(actor, idOrSlug, roles) {
      const community = await find(idOrSlug);
      return community && canSeeCommunity(actor, community, roles ?? (await rolesOf(actor))) ? community : null;
    },
    curatorEmails: (communityId) => store.listMemberEmails(db, communityId, CURATING_ROLES),
    async readableEntries(actor, ids) {
      if (ids.length === 0) return [];
      const rows = await store.listCommunitiesIn(db, ids, readableCommunitiesFilter(actor));
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.flatMap((id) => (byId.has(id) ? [presentCommunity(byId.get(id)!, links)] : []));
    },
    async readableTitles(actor, ids) {
      const titles = new Map<string, string>();
      const unique = [...new Set(ids)];
      for (let i = 0; i < unique.length; i += 500) {
        const rows = await store.listCommunityTitles(db, unique.slice(i, i + 500), readableCommunitiesFilter(actor));
        for (const row of rows) titles.set(row.id, typeof row.title === "string" && row.title ? row.title : row.slug);
      }
      return titles;
    },
  };
}
