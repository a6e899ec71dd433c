// Who may see and act on requests: the parties (creator and receiver, a community party acted for
// by its curators and up; the receiver only once submitted), administrators reading everything,
// and the listing filter in SQL that keeps searches, totals and facets to what the caller may read.
import { and, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { isAdmin, type Actor } from "../core/actor";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { requestsTable } from "../db/tables";
import { canSeeCommunity } from "../communities/policy";
import { forbidden, notFound } from "../core/errors";
import { atLeast as holdsAtLeast, type Role } from "../communities/roles";
import type { EntityRef, Parties, RequestAction, RequestType, RequestView } from "./request-type";

/** The actor's community roles, asked once per operation (the directory's answer). */
export type Roles = ReadonlyMap<string, Role>;

/** The least community role that acts for a community party unless a type asks for more. */
export const DEFAULT_PARTY_ROLE: Role = "curator";

/** True when the actor is this party, or acts for it (a community with at least `atLeast`, a group it belongs to). */
export function actsFor(actor: Actor, roles: Roles, ref: EntityRef, atLeast: Role = DEFAULT_PARTY_ROLE): boolean {
  if (actor.kind !== "user") return false;
  switch (ref.kind) {
    case "user":
      return ref.id === String(actor.userId);
    case "community": {
      return holdsAtLeast(roles.get(ref.id), atLeast);
    }
    case "group":
      return actor.groupIds.includes(ref.id);
    default:
      // An e-mail party is a guest: nobody signed in acts for it. A record is never a party.
      return false;
  }
}

/** The least role that decides a type's requests for a receiving community (the type's own rule). */
export const receiverRoleOf = (type: Pick<RequestType, "receiverRole">): Role => type.receiverRole ?? DEFAULT_PARTY_ROLE;

/** `receiverRole`: the least community role `isReceiver()` asks when the type's rule names none. */
export function partiesOf(actor: Actor, roles: Roles, request: Pick<RequestView, "createdBy" | "receiver">, receiverRole: Role = DEFAULT_PARTY_ROLE): Parties {
  return {
    actor,
    isCreator: (atLeast) => actsFor(actor, roles, request.createdBy, atLeast),
    isReceiver: (atLeast = receiverRole) => actsFor(actor, roles, request.receiver, atLeast),
  };
}

type Sides = Pick<RequestView, "createdBy" | "receiver" | "status">;

/** The creator, always; the receiver once the request is submitted (a `created` request is the creator's draft). */
function isParty(actor: Actor, roles: Roles, request: Sides): boolean {
  const p = partiesOf(actor, roles, request);
  return p.isCreator() || (request.status !== "created" && p.isReceiver());
}

/** Parties read their requests; administrators and the system read every request. */
export function canReadRequest(actor: Actor, roles: Roles, request: Sides): boolean {
  return isAdmin(actor) || isParty(actor, roles, request);
}

/** Parties comment; administrators read but take no part (InvenioRDM: creator, receiver, system). */
export function canComment(actor: Actor, roles: Roles, request: Sides): boolean {
  return actor.kind === "system" || isParty(actor, roles, request);
}

/** Whether the caller may run an action the status machine allows now: the system always, others as the type says. */
export function canRunAction(type: RequestType, action: RequestAction, actor: Actor, roles: Roles, request: RequestView): boolean {
  if (actor.kind === "system") return true;
  const rule = type.can[action];
  return rule ? rule(partiesOf(actor, roles, request, receiverRoleOf(type)), request) : false;
}

/** Only the creator edits the title and description (the same rule as submitting). */
export function canEditRequest(type: RequestType, actor: Actor, roles: Roles, request: RequestView): boolean {
  if (actor.kind === "system") return true;
  const p = partiesOf(actor, roles, request);
  return type.can.submit ? type.can.submit(p, request) : p.isCreator();
}

/** One side of a request (creator or receiver) naming the actor or a community or group it acts for. */
function sideFilter(kind: SQLiteColumn, id: SQLiteColumn, actor: Actor & { kind: "user" }, communities: string[]): SQL {
  const conds = [and(eq(kind, "user"), eq(id, String(actor.userId)))];
  if (communities.length) conds.push(and(eq(kind, "community"), inArray(id, communities)));
  if (actor.groupIds.length) conds.push(and(eq(kind, "group"), inArray(id, actor.groupIds)));
  return or(...conds)!;
}

/**
 * Requests the actor may read, as SQL. `ownOnly` (`/api/user/requests`) leaves out the
 * administrator's view of everything: only requests the caller is a party to.
 */
export function readableRequestsFilter(actor: Actor, roles: Roles, ownOnly = false): SQL {
  if (!ownOnly && isAdmin(actor)) return sql`1 = 1`;
  if (actor.kind !== "user") return sql`1 = 0`;
  const communities = [...roles].filter(([, role]) => holdsAtLeast(role, DEFAULT_PARTY_ROLE)).map(([id]) => id);
  const t = requestsTable;
  return or(sideFilter(t.createdByKind, t.createdById, actor, communities), and(ne(t.status, "created"), sideFilter(t.receiverKind, t.receiverId, actor, communities)))!;
}

/**
 * Requests waiting for the actor's decision, as SQL (the header's badge): open (`submitted`) and
 * received by the actor, a group of theirs, or a community where they hold the type's
 * `receiverRole` (the role `p.isReceiver()` asks when deciding: a membership request counts for
 * managers, a review for curators); never what they created, nor what others receive. Types not
 * registered (nobody decides them) never count for a community.
 */
export function awaitingActionFilter(actor: Actor, roles: Roles, types: Iterable<RequestType>): SQL {
  if (actor.kind !== "user") return sql`1 = 0`;
  const t = requestsTable;
  const byRole = new Map<Role, string[]>();
  for (const type of types) byRole.set(receiverRoleOf(type), [...(byRole.get(receiverRoleOf(type)) ?? []), type.id]);
  const receivedByCommunity = [...byRole].flatMap(([role, typeIds]) => {
    const communities = [...roles].filter(([, held]) => holdsAtLeast(held, role)).map(([id]) => id);
    return communities.length ? [and(eq(t.receiverKind, "community"), inArray(t.receiverId, communities), inArray(t.type, typeIds))!] : [];
  });
  return and(eq(t.status, "submitted"), or(sideFilter(t.receiverKind, t.receiverId, actor, []), ...receivedByCommunity))!;
}

/**
 * Searching a community's requests (`/communities/{id}/requests`): 404 for a community the caller
 * may not see (the communities policy's rule: a restricted one does not exist for outsiders), then
 * InvenioRDM's rule, its curators, managers and owners (403 for others); administrators search every one.
 */
export function checkSearchCommunityRequests(actor: Actor, roles: Roles, community: { id: string; visibility: string }, notFoundMessage: string): void {
  if (!canSeeCommunity(actor, community, roles)) throw notFound(notFoundMessage);
  if (!isAdmin(actor) && !actsFor(actor, roles, { kind: "community", id: community.id })) throw forbidden();
}
