// Groups of users (InvenioRDM's roles): created by administrators, used in community membership,
// and readable through the groups directory API.
import { requireAdmin, type Actor } from "../core/actor";
import { initialsOf, renderAvatar, type Avatar } from "../core/avatar";
import type { Deps } from "../core/deps";
import { forbidden, notFound, validationError } from "../core/errors";
import { newUuid } from "../core/ids";
import type { SearchResult } from "../core/paging";
import { queryWords } from "../core/word-match";
import type { GroupSearchQuery } from "./model";
import { checkSearchGroups, readableGroupsFilter } from "./policy";
import { presentGroup, type GroupJson } from "./present";
import * as store from "./store";

/** The spec: "at most 10 results per query; pagination not supported". */
export const GROUP_SEARCH_LIMIT = 10;
/** At most this many groups are taken from one sign-in's groups claim (a directory may list hundreds). */
export const MAX_SYNCED_GROUPS = 200;

export type GroupsService = ReturnType<typeof createGroupsService>;

export function createGroupsService(deps: Deps) {
  const { db, clock, links } = deps;

  /** A group the actor may see, by id or name; 403 otherwise, as the spec shows for missing groups. */
  async function loadGroup(actor: Actor, key: string) {
    const row = await store.findGroupByIdOrName(db, key, readableGroupsFilter(actor));
    if (!row) throw forbidden();
    return row;
  }

  return {
    async createGroup(actor: Actor, input: { name: string; description?: string }) {
      requireAdmin(actor);
      const name = input.name.trim();
      if (!name || name.length > 80) throw validationError([{ field: "name", messages: ["A group name has 1 to 80 characters."] }]);
      if (await store.findGroupByName(db, name)) throw validationError([{ field: "name", messages: [`A group named '${name}' exists already.`] }]);
      const now = clock.now();
      return await store.insertGroup(db, { id: newUuid(), name, description: input.description ?? "", created: now, updated: now });
    },

    /** Adds a user to a group by the group's name or id; true when newly added. */
    async addMember(actor: Actor, group: string, userId: number) {
      requireAdmin(actor);
      const row = (await store.findGroupById(db, group)) ?? (await store.findGroupByName(db, group));
      if (!row) throw notFound(`No group named '${group}'.`);
      return { group: row, added: await store.insertGroupMember(db, row.id, userId, clock.now()) };
    },

    /**
     * sync_groups: the groups a sign-in source names for the person become their memberships from
     * that source (a group seen first is made, kept by Cairn); the source's earlier memberships it
     * no longer names end. Memberships added by hand are left alone. Names longer than a group's
     * 80 characters are skipped, and at most MAX_SYNCED_GROUPS are taken.
     */
    async syncMemberships(actor: Actor, userId: number, source: string, names: readonly string[]): Promise<string[]> {
      requireAdmin(actor);
      const wanted = [
        ...new Map(
          names
            .map((n) => n.trim())
            .filter((n) => n && n.length <= 80)
            .map((n) => [n.toLowerCase(), n]),
        ).values(),
      ].slice(0, MAX_SYNCED_GROUPS);
      const now = clock.now();
      return db.write(async (tx) => {
        const ids: string[] = [];
        for (const name of wanted) {
          const group = (await store.findGroupByName(tx, name)) ?? (await store.insertGroup(tx, { id: newUuid(), name, isManaged: true, created: now, updated: now }));
          await store.insertSourcedGroupMember(tx, group.id, userId, source, now);
          ids.push(group.id);
        }
        const gone = (await store.listSourcedGroupIds(tx, userId, source)).filter((id) => !ids.includes(id));
        if (gone.length) await store.deleteSourcedGroupMembers(tx, userId, source, gone);
        return ids;
      });
    },

    async listGroups(actor: Actor) {
      requireAdmin(actor);
      return await store.listGroups(db);
    },

    /** The directory: every query word prefixes a word of the name or description; 10 hits at most, by name. */
    async searchGroups(actor: Actor, query: GroupSearchQuery): Promise<SearchResult<GroupJson>> {
      checkSearchGroups(actor);
      const { rows, total } = await store.searchGroups(db, readableGroupsFilter(actor), queryWords(query.q), GROUP_SEARCH_LIMIT);
      return {
        hits: { hits: rows.map((row) => presentGroup(row, links)), total },
        sortBy: "name",
        // No prev/next: the directory is not paged.
        links: { self: links.api("/groups", { q: query.q, sort: "name" }) },
      };
    },

    async readGroup(actor: Actor, key: string): Promise<GroupJson> {
      return presentGroup(await loadGroup(actor, key), links);
    },

    /** Coloured by the id, so a renamed group keeps its colour; lettered by the name. */
    async readGroupAvatar(actor: Actor, key: string): Promise<Avatar> {
      const row = await loadGroup(actor, key);
      return renderAvatar(row.id, initialsOf(row.name, 1));
    },
  };
}
