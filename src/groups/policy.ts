// Who may see which groups: single reads and avatars are open to all, the directory search needs
// a signed-in caller (the spec: "auth for search"); the SQL filter keeps listings and reads in step.
import { sql, type SQL } from "drizzle-orm";
import { requireUser, type Actor } from "../core/actor";

/** 401 for anonymous callers. */
export function checkSearchGroups(actor: Actor): void {
  requireUser(actor);
}

/**
 * Groups the actor may see. Every group, for now: InvenioRDM shows all roles to everyone, and
 * Cairn has no hidden groups yet. Reads and searches both go through it, so a rule added here
 * holds everywhere.
 */
export function readableGroupsFilter(_actor: Actor): SQL {
  return sql`1 = 1`;
}
