// Community members: the listings, adding groups, changing roles and visibility, removing and
// leaving, with every rule of the spec's list; invitations and membership requests (their own
// files).
import { requireAdmin, requireUser, type Actor } from "../core/actor";
import { notFound, validationError, type FieldError } from "../core/errors";
import type { Role } from "../communities/roles";
import type { MembersDeps } from "./context";
import type { MemberKey } from "./model";
import {
  callerIn,
  checkGrantRole,
  checkListMembers,
  checkListPublicMembers,
  checkManageMembers,
  checkOwnersLeft,
  checkRemoveMember,
  checkUpdateMember,
  NOT_FOUND,
  publicMembersFilter,
  searchableColumns,
  type Caller,
} from "./policy";
import { presentMember, presentPublicMember } from "./present";
import { ROLE_FACET, searchListing, VISIBILITY_FACET } from "./search";
import * as store from "./store";
import { checkAddBody, checkDeleteBody, checkUpdateBody } from "./validate";
import { createInvitationOperations } from "./invitations";
import { createMembershipWriter } from "./writer";
import { createMembershipRequestOperations } from "./membership-requests";

export type MembersService = ReturnType<typeof createMembersService>;

const INVALID_MEMBER = "Invalid member specified.";

export function createMembersService(deps: MembersDeps) {
  const { db, clock, config, links, communities } = deps;
  const limits = { defaultSize: config.SEARCH_DEFAULT_PAGE_SIZE, maxSize: config.SEARCH_MAX_PAGE_SIZE, maxWindow: config.SEARCH_MAX_RESULTS_WINDOW };

  /** The community by UUID or slug and the caller's standing in it; 404 when missing or restricted from the caller. */
  async function loadCommunity(actor: Actor, key: string) {
    const roles = await communities.rolesOf(actor);
    const community = await communities.findReadable(actor, key, roles);
    if (!community) throw notFound(NOT_FOUND);
    return { community, caller: callerIn(actor, roles.get(community.id)) };
  }

  /** The memberships the list names, in its order; 400 naming each one that is not a member. */
  async function resolveMembers(communityId: string, keys: MemberKey[]) {
    const userIds = keys.filter((k) => k.type === "user" && /^\d{1,15}$/.test(k.id)).map((k) => Number(k.id));
    const groupKeys = keys.filter((k) => k.type === "group").map((k) => k.id);
    const rows = await store.findMembers(db, communityId, userIds, groupKeys);
    const errors: FieldError[] = [];
    const found = keys.map((key, i) => {
      const row = rows.find((r) =>
        key.type === "user" ? String(r.member.userId) === key.id : r.member.groupId === key.id || (r.member.groupId !== null && r.name.toLowerCase() === key.id.toLowerCase()),
      );
      if (!row) errors.push({ field: `members.${i}`, messages: [`${INVALID_MEMBER} The ${key.type} '${key.id}' is not a member of this community.`] });
      return row!;
    });
    if (new Set(found.filter(Boolean).map((r) => r.member.id)).size < found.filter(Boolean).length) {
      errors.push({ field: "members", messages: ["The same member is listed twice."] });
    }
    if (errors.length) throw validationError(errors, INVALID_MEMBER);
    return found;
  }

  /** Inserts a membership; 400 when the user or group is a member already. Runs inside the caller's transaction. */
  const insertMembership = createMembershipWriter(db).insert;

  const present = async (caller: Caller, communityId: string) => {
    const owners = await store.countOwners(db, communityId);
    return (row: store.ListedMember) => presentMember(row, caller, owners, links);
  };

  const operations = { deps, limits, loadCommunity };

  return {
    ...createInvitationOperations(operations),
    ...createMembershipRequestOperations(operations),

    /**
     * A user's communities with their role (administrators; the administration's user page), at
     * most `limit` of them by slug, and whether the user is each one's only owner.
     */
    async listUserCommunities(actor: Actor, userId: number, limit = 50) {
      requireAdmin(actor);
      const { rows, total } = await store.listUserMemberships(db, userId, limit);
      const communities = rows.map((r) => ({
        id: r.id,
        slug: r.slug,
        title: typeof r.metadata.title === "string" && r.metadata.title ? r.metadata.title : r.slug,
        role: r.role as Role,
        onlyOwner: r.role === "owner" && Number(r.owners) === 1,
      }));
      return { communities, total };
    },

    /** Members of any role (directly or through a group) and administrators. */
    async searchMembers(actor: Actor, key: string, query: Record<string, unknown>) {
      const { community, caller } = await loadCommunity(actor, key);
      checkListMembers(caller);
      const listing = {
        communityId: community.id,
        filters: [],
        columns: searchableColumns(caller, "members"),
        facets: [ROLE_FACET, VISIBILITY_FACET],
        url: (q: Record<string, unknown>) => links.api(`/communities/${community.id}/members`, q as never),
      };
      return await searchListing(db, limits, listing, query, await present(caller, community.id));
    },

    /** Anyone who may see the community (members only where members_visibility is restricted): visible members only, `id` and `member` only, always by name. */
    async searchPublicMembers(actor: Actor, key: string, query: Record<string, unknown>) {
      const { community, caller } = await loadCommunity(actor, key);
      checkListPublicMembers(caller, community);
      const listing = {
        communityId: community.id,
        filters: [publicMembersFilter()],
        columns: searchableColumns(caller, "public"),
        facets: [],
        fixedSort: "name",
        url: (q: Record<string, unknown>) => links.api(`/communities/${community.id}/members/public`, q as never),
      };
      return await searchListing(db, limits, listing, query, (row) => presentPublicMember(row, links));
    },

    /** Rule 1: groups are added directly (users are invited). Owners add any role, managers any but owner. */
    async addMembers(actor: Actor, key: string, body: unknown): Promise<void> {
      requireUser(actor);
      const { community, caller } = await loadCommunity(actor, key);
      checkManageMembers(caller);
      const input = checkAddBody(body);
      checkGrantRole(caller, input.role);
      const groups = await store.findGroups(
        db,
        input.members.map((m) => m.id),
      );
      const errors: FieldError[] = [];
      const ids = input.members.map((m, i) => {
        const group = groups.find((g) => g.id === m.id) ?? groups.find((g) => g.name.toLowerCase() === m.id.toLowerCase());
        if (!group) errors.push({ field: `members.${i}.id`, messages: [`${INVALID_MEMBER} No group '${m.id}' exists.`] });
        return group?.id;
      });
      if (new Set(ids).size < ids.length) errors.push({ field: "members", messages: ["The same group is listed twice."] });
      if (errors.length) throw validationError(errors, INVALID_MEMBER);
      const now = clock.now();
      // InvenioRDM adds members hidden unless told otherwise; a group has no privacy of its own to protect, so `visible: true` is allowed.
      await db.write(async () => {
        for (const id of ids) await insertMembership({ communityId: community.id, member: { kind: "group", id: id! }, role: input.role, visible: input.visible ?? false, now });
      });
    },

    /** Role and/or visibility of the listed members; all or nothing. */
    async updateMembers(actor: Actor, key: string, body: unknown): Promise<void> {
      requireUser(actor);
      const { community, caller } = await loadCommunity(actor, key);
      checkListMembers(caller);
      const input = checkUpdateBody(body);
      const now = clock.now();
      await db.write(async (tx) => {
        const rows = await resolveMembers(community.id, input.members);
        for (const row of rows) {
          const facts = { userId: row.member.userId, role: row.member.role as Role, visible: row.member.visible };
          checkUpdateMember(caller, facts, { role: input.role, visible: input.visible });
          await store.updateMember(tx, row.member.id, { role: input.role, visible: input.visible }, now);
        }
        if (input.role !== undefined && rows.some((r) => r.member.role === "owner")) checkOwnersLeft(await store.countOwners(tx, community.id));
      });
    },

    /** Removes the listed members, or the caller themself (leaving); all or nothing; never the last owner. */
    async removeMembers(actor: Actor, key: string, body: unknown): Promise<void> {
      requireUser(actor);
      const { community, caller } = await loadCommunity(actor, key);
      checkListMembers(caller);
      const input = checkDeleteBody(body);
      await db.write(async (tx) => {
        const rows = await resolveMembers(community.id, input.members);
        for (const row of rows) {
          checkRemoveMember(caller, { userId: row.member.userId, role: row.member.role as Role, visible: row.member.visible });
          await store.deleteMember(tx, row.member.id);
        }
        if (rows.some((r) => r.member.role === "owner")) checkOwnersLeft(await store.countOwners(tx, community.id));
      });
    },
  };
}
