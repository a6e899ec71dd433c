// A request's timeline: comments (written by the parties, edited and deleted only by their
// author; a deleted comment is blanked into a log event, as InvenioRDM does) and the log events
// of its transitions, listed oldest first.
import type { Actor } from "../core/actor";
import { badRequest, forbidden, notFound } from "../core/errors";
import { checkRevision } from "../core/etag";
import { newUuid } from "../core/ids";
import { parsePage, searchEnvelope, type SearchResult } from "../core/paging";
import { chooseSort } from "../search/sorts";
import type { RequestsContext } from "./context";
import type { ListParams } from "./model";
import type { Notify } from "./notify";
import { canComment } from "./policy";
import { presentEvent, type EventJson } from "./present";
import * as store from "./store";
import { readCommentBody } from "./validate";

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.at(-1) : v);

export function createTimeline(ctx: RequestsContext, notify: Notify) {
  const { db, clock, links, config } = ctx.deps;
  const limits = { defaultSize: config.SEARCH_DEFAULT_PAGE_SIZE, maxSize: config.SEARCH_MAX_PAGE_SIZE, maxWindow: config.SEARCH_MAX_RESULTS_WINDOW };

  async function loadEvent(requestId: string, eventId: string) {
    const event = await store.findEvent(db, requestId, eventId.toLowerCase());
    if (!event) throw notFound(`No comment with id '${eventId}' on this request.`);
    return event;
  }

  /** A comment the actor wrote (the system may change any): 400 for a log event, 403 for someone else's. */
  async function loadOwnComment(actor: Actor, id: string, eventId: string) {
    const { row } = await ctx.loadRequest(actor, id);
    const event = await loadEvent(row.id, eventId);
    if (event.type !== "C") throw badRequest(`Only comments can be changed; this event is a log event${event.payload.event ? ` ('${String(event.payload.event)}')` : ""}.`);
    const author = ctx.authorOf(actor);
    if (actor.kind !== "system" && (event.createdByKind !== author.createdByKind || event.createdById !== author.createdById)) throw forbidden();
    return event;
  }

  return {
    async createComment(actor: Actor, id: string, body: unknown): Promise<EventJson> {
      const { row, roles } = await ctx.loadRequest(actor, id);
      if (!canComment(actor, roles, store.viewOf(row))) throw forbidden();
      const comment = readCommentBody(body, false)!;
      const now = clock.now();
      const event = await store.insertEvent(db, { id: newUuid(), requestId: row.id, type: "C", ...ctx.authorOf(actor), payload: { ...comment }, created: now, updated: now });
      await notify("commented", row, actor, comment.content);
      return presentEvent(event, links);
    },

    async readComment(actor: Actor, id: string, eventId: string): Promise<EventJson> {
      const { row } = await ctx.loadRequest(actor, id);
      return presentEvent(await loadEvent(row.id, eventId), links);
    },

    async updateComment(actor: Actor, id: string, eventId: string, body: unknown, ifMatch?: string | null): Promise<EventJson> {
      const event = await loadOwnComment(actor, id, eventId);
      checkRevision(ifMatch, event.revisionId);
      const comment = readCommentBody(body, false)!;
      return presentEvent(await store.updateEvent(db, event.id, { payload: { ...comment } }, clock.now()), links);
    },

    /** Blanks the comment and turns it into a log event, so the timeline keeps its place. */
    async deleteComment(actor: Actor, id: string, eventId: string, ifMatch?: string | null): Promise<void> {
      const event = await loadOwnComment(actor, id, eventId);
      checkRevision(ifMatch, event.revisionId);
      await db.write((tx) => store.updateEvent(tx, event.id, { type: "L", payload: { event: "comment_deleted", content: "", format: "html" } }, clock.now()));
    },

    /** The timeline, oldest first unless `sort=newest`. */
    async readTimeline(actor: Actor, id: string, params: ListParams): Promise<SearchResult<EventJson>> {
      const { row } = await ctx.loadRequest(actor, id);
      const page = parsePage({ page: one(params.page), size: one(params.size) }, limits);
      const sort = chooseSort({ options: ["oldest", "newest"], requested: one(params.sort), hasQuery: false, defaultSort: "oldest" });
      const { rows, total } = await store.listEvents(db, row.id, sort === "newest", page.size, page.offset);
      return searchEnvelope({
        items: rows.map((e) => presentEvent(e, links)),
        total,
        page,
        url: (query) => links.api(`/requests/${row.id}/timeline`, query),
        sortBy: sort,
      });
    },
  };
}
