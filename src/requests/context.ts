// What the requests engine needs from other modules (communities, users), as narrow interfaces
// app.ts fills in, the dependencies the engine is built from, and what its operations share.
import type { Role } from "../communities/roles";
import { requireUser, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { forbidden, notFound } from "../core/errors";
import { allowedIn, API_ACTIONS } from "./machine";
import { canReadRequest, canRunAction, type Roles } from "./policy";
import { isExpired, presentRequest } from "./present";
import * as store from "./store";
import type { RequestAction, RequestType } from "./request-type";

/** The communities module's answers about communities as request parties. */
export interface CommunityDirectory {
  /** The community by UUID or slug, or null when there is none. */
  find(idOrSlug: string): Promise<{ id: string; slug: string; title: string; visibility: "public" | "restricted" } | null>;
  /** The actor's role in each community it belongs to (directly or through one of its groups); empty for anonymous. */
  rolesOf(actor: Actor): Promise<Map<string, Role>>;
  /** E-mail addresses of the community's curators, managers and owners (notification recipients). */
  curatorEmails(communityId: string): Promise<string[]>;
}

/** The users module's answers about users as request parties. */
export interface UserDirectory {
  /** The user's e-mail address, or null when there is no such (active) user. */
  emailOf(userId: string): Promise<string | null>;
  /** How mail names the user: a full name or username, else the e-mail address. */
  nameOf(userId: string): Promise<string | null>;
  /** E-mail addresses of a group's members. */
  groupEmails?(groupId: string): Promise<string[]>;
}

/** The user directory from the users service's `findUserById` (app.ts wiring). */
export function userDirectoryOf(findUserById: (id: number) => Promise<{ email: string; fullName: string; username: string | null; active: boolean } | null>): UserDirectory {
  const find = async (id: string) => {
    const user = /^\d{1,15}$/.test(id) ? await findUserById(Number(id)) : null;
    return user?.active ? user : null;
  };
  return {
    emailOf: async (id) => (await find(id))?.email ?? null,
    nameOf: async (id) => {
      const user = await find(id);
      return user ? user.fullName.trim() || user.username || user.email : null;
    },
  };
}

export interface RequestsDeps extends Deps {
  communities: CommunityDirectory;
  users: UserDirectory;
  /** Queues one notification; called after the change it reports has committed (mail/service.ts). */
  queueMail(mail: { to: string; subject: string; body: string; topic: string }): Promise<unknown>;
  /** The request types the engine moves: each module's, assembled by app.ts; tests pass their own. */
  types: readonly RequestType[];
  log?(message: string): void;
}

/** Rows of a type no longer registered stay readable; nobody but the system acts on them. */
const unknownType = (id: string): RequestType => ({ id, entities: { creator: [], receiver: [], topic: null }, can: {} });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createRequestsContext(deps: RequestsDeps) {
  const { db, clock, links } = deps;
  const types = new Map(deps.types.map((type) => [type.id, type]));

  const typeOf = (id: string) => types.get(id) ?? unknownType(id);
  const rolesOf = async (actor: Actor): Promise<Roles> => (actor.kind === "user" ? deps.communities.rolesOf(actor) : new Map());

  /** The actions of `POST .../actions/{action}` the actor may run now (the links' `actions`). */
  function actionsFor(actor: Actor, roles: Roles, row: store.RequestRow, now: number): RequestAction[] {
    const view = store.viewOf(row);
    const overdue = isExpired(row, now);
    return API_ACTIONS.filter((a) => allowedIn(a, view.status) && (a === "expire" || !overdue) && canRunAction(typeOf(row.type), a, actor, roles, view));
  }

  return {
    deps,
    types,
    typeOf,
    rolesOf,
    actionsFor,

    /** A request the actor may read: 401 anonymous, 404 unknown, 403 when not a party. */
    async loadRequest(actor: Actor, id: string) {
      requireUser(actor);
      const row = UUID.test(id) ? await store.findRequest(db, id.toLowerCase()) : undefined;
      if (!row) throw notFound(`No request with id '${id}'.`);
      const roles = await rolesOf(actor);
      if (!canReadRequest(actor, roles, store.viewOf(row))) throw forbidden();
      return { row, roles, type: typeOf(row.type) };
    },

    present(actor: Actor, roles: Roles, row: store.RequestRow) {
      const now = clock.now();
      return presentRequest(row, actionsFor(actor, roles, row, now), links, now);
    },

    /** How events record who wrote them: the user, or `{user: "system"}` for jobs (as InvenioRDM does). */
    authorOf: (actor: Actor) => ({ createdByKind: "user", createdById: actor.kind === "user" ? String(actor.userId) : "system" }),
  };
}

export type RequestsContext = ReturnType<typeof createRequestsContext>;
