// Groups of users (InvenioRDM's roles): created by administrators, used in community membership.
import { requireAdmin, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { notFound, validationError } from "../core/errors";
import { newUuid } from "../core/ids";
import * as store from "./store";

export type GroupsService = ReturnType<typeof createGroupsService>;

export function createGroupsService(deps: Deps) {
  const { db, clock } = deps;
  return {
    createGroup(actor: Actor, input: { name: string; description?: string }) {
      requireAdmin(actor);
      const name = input.name.trim();
      if (!name || name.length > 80) throw validationError([{ field: "name", messages: ["A group name has 1 to 80 characters."] }]);
      if (store.findGroupByName(db, name)) throw validationError([{ field: "name", messages: [`A group named '${name}' exists already.`] }]);
      const now = clock.now();
      return store.insertGroup(db, { id: newUuid(), name, description: input.description ?? "", created: now, updated: now });
    },

    /** Adds a user to a group by the group's name or id; true when newly added. */
    addMember(actor: Actor, group: string, userId: number) {
      requireAdmin(actor);
      const row = store.findGroupById(db, group) ?? store.findGroupByName(db, group);
      if (!row) throw notFound(`No group named '${group}'.`);
      return { group: row, added: store.insertGroupMember(db, row.id, userId, clock.now()) };
    },

    listGroups(actor: Actor) {
      requireAdmin(actor);
      return store.listGroups(db);
    },
  };
}
