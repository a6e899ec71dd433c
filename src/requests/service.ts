// The requests engine as one service: reading, editing, deleting and acting on requests, their
// timeline, the listings, creation for other modules, and the daily expiry. Every operation
// takes the actor first and authorises before it works.
import type { Actor } from "../core/actor";
import { badRequest, forbidden, notFound } from "../core/errors";
import { checkRevision } from "../core/etag";
import { createRequestActions, type NewRequest } from "./actions";
import { createRequestsContext, type RequestsDeps } from "./context";
import { API_ACTIONS, isRequestAction, isOpen } from "./machine";
import type { ListParams } from "./model";
import { createNotifier } from "./notify";
import { awaitingActionFilter, canEditRequest } from "./policy";
import type { RequestJson } from "./present";
import { createRequestSearch } from "./search";
import * as store from "./store";
import { createTimeline } from "./timeline";
import type { RequestStatus, RequestType, RequestView } from "./request-type";
import { actionInput, readCommentBody, readRequestEdit } from "./validate";

export type { NewRequest } from "./actions";
export type RequestsService = ReturnType<typeof createRequestsService>;

export type RequestLookup = store.RequestLookup & { limit?: number };

export function createRequestsService(deps: RequestsDeps) {
  const ctx = createRequestsContext(deps);
  const notify = createNotifier(ctx);
  const actions = createRequestActions(ctx, notify);
  const search = createRequestSearch(ctx);
  const timeline = createTimeline(ctx, notify);
  const { db, clock } = deps;

  return {
    createRequest: (actor: Actor, input: NewRequest): Promise<RequestJson> => actions.createRequest(actor, input),

    /** Adds a type at run time (tests); the shipped types are assembled in app.ts. */
    registerType(type: RequestType) {
      if (ctx.types.has(type.id)) throw new Error(`request type ${type.id} is registered twice`);
      ctx.types.set(type.id, type);
    },

    async readRequest(actor: Actor, id: string): Promise<RequestJson> {
      const { row, roles } = await ctx.loadRequest(actor, id);
      return ctx.present(actor, roles, row);
    },

    /**
     * The name a guest gave with their request (`payload.full_name` of a request created by an
     * e-mail address), for whoever may read the request: pages name the guest by it. Null for a
     * request made by a user or community, or a guest who gave none. The API's JSON leaves the payload out.
     */
    async guestNameOf(actor: Actor, id: string): Promise<string | null> {
      const { row } = await ctx.loadRequest(actor, id);
      const name = row.createdByKind === "email" ? (row.payload as Record<string, unknown> | null)?.full_name : null;
      return typeof name === "string" && name.trim() ? name.trim() : null;
    },

    /** Title and description, by the creator, while the request is a draft or open. */
    async updateRequest(actor: Actor, id: string, body: unknown, ifMatch?: string | null): Promise<RequestJson> {
      const { row, roles, type } = await ctx.loadRequest(actor, id);
      const status = row.status as RequestStatus;
      if (status !== "created" && !isOpen(status)) throw badRequest(`A request in the state '${status}' can no longer be edited (only in: created, submitted).`);
      if (!canEditRequest(type, actor, roles, store.viewOf(row))) throw forbidden();
      checkRevision(ifMatch, row.revisionId);
      const edit = readRequestEdit(body);
      const changed = await db.write((tx) => store.updateRequest(tx, row.id, edit, clock.now()));
      return ctx.present(actor, roles, changed);
    },

    /** Only a draft (`created`) is deleted, by whoever may delete it (the creator, as a rule). */
    async deleteRequest(actor: Actor, id: string, ifMatch?: string | null): Promise<void> {
      await actions.runTransition(actor, id, "delete", null, (current) => checkRevision(ifMatch, current));
    },

    /** `POST /requests/{id}/actions/{action}` with an optional comment written with the transition. */
    async runAction(actor: Actor, id: string, action: string, body?: unknown): Promise<RequestJson> {
      await ctx.loadRequest(actor, id);
      if (!isRequestAction(action) || action === "delete") {
        throw badRequest(`No action '${action}' on requests; the actions are: ${API_ACTIONS.join(", ")}${action === "delete" ? " (delete a draft with DELETE)" : ""}.`);
      }
      const comment = readCommentBody(body, true);
      const { row, roles } = await actions.runTransition(actor, id, action, comment, undefined, actionInput(body));
      return ctx.present(actor, roles, row!);
    },

    searchRequests: (actor: Actor, params: ListParams) => search(actor, params, { kind: "all" }),
    searchUserRequests: (actor: Actor, params: ListParams) => search(actor, params, { kind: "user" }),
    searchCommunityRequests: (actor: Actor, community: string, params: ListParams) => search(actor, params, { kind: "community", idOrSlug: community }),
    /**
     * The requests about a record (`GET /api/records/{id}/requests`, listed at `path`) the caller may
     * read; the caller (the record-requests module) has checked the record is readable.
     */
    searchRecordRequests: (actor: Actor, recordId: string, path: string, params: ListParams) =>
      search(actor, params, { kind: "topic", topic: { kind: "record", id: recordId }, path }),

    /** How many open requests wait for the caller's decision (received by them, their groups, or communities where they hold the type's `receiverRole`); 0 for guests. */
    async countAwaitingAction(actor: Actor): Promise<number> {
      if (actor.kind !== "user") return 0;
      return await store.countRequests(db, awaitingActionFilter(actor, await ctx.rolesOf(actor), ctx.types.values()));
    },

    createComment: timeline.createComment,
    readComment: timeline.readComment,
    updateComment: timeline.updateComment,
    deleteComment: timeline.deleteComment,
    readTimeline: timeline.readTimeline,

    /** For communities' onDelete hook: drafts and open requests of the community are closed in its deletion's transaction. */
    closeCommunityRequests: async (community: { id: string }, at: number): Promise<void> => {
      await actions.closeCommunityRequests(community.id, at);
    },

    /** For blocking a user (users/admin.ts): their drafts and open requests are closed in the block's transaction; the number closed. */
    closeUserRequests: (userId: number, at: number, afterCommit: (work: () => Promise<void>) => void): Promise<number> => actions.closeUserRequests(userId, at, afterCommit),

    /** Runs an action inside the caller's transaction for the module owning the type, which authorised it (actions.ts runWithin). */
    runWithin: actions.runWithin,

    /** The `requests-expire` job. */
    expireOverdue: () => actions.expireOverdue(),

    /** One request as types see it, or null (other modules; no permission check). */
    async findRequest(id: string): Promise<RequestView | null> {
      const row = await store.findRequest(db, id);
      return row ? store.viewOf(row) : null;
    },

    /** Requests by type, party or topic, oldest first (other modules, e.g. a community's invitations; no permission check). */
    async findRequests(lookup: RequestLookup): Promise<RequestView[]> {
      return (await store.listRequestsBy(db, lookup, lookup.limit ?? 1000)).map(store.viewOf);
    },

    /**
     * Replaces the type's payload of a draft or open request (e.g. the role an invitation offers),
     * with the next revision; joins the caller's transaction. No permission check: the owning module authorised.
     */
    async updatePayload(id: string, payload: Record<string, unknown>, now: number): Promise<void> {
      const row = await store.findRequest(db, id);
      if (!row) throw notFound(`No request with id '${id}'.`);
      const status = row.status as RequestStatus;
      if (status !== "created" && !isOpen(status)) throw badRequest(`A request in the state '${status}' can no longer be changed.`);
      await db.write((tx) => store.updateRequest(tx, row.id, { payload }, now));
    },

    /** A request as the actor sees it, links and allowed actions included (for other modules' responses). */
    async presentFor(actor: Actor, id: string): Promise<RequestJson> {
      const { row, roles } = await ctx.loadRequest(actor, id);
      return ctx.present(actor, roles, row);
    },
  };
}
