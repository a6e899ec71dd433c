// The dashboard: /me/uploads, /me/requests (and one request, with its comment and action forms),
// /me/communities; /requests/{id} (a request's self_html) leads to the request's page here.
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import type { ActorContext } from "../../core/http";
import { HttpError } from "../../core/errors";
import { pageContextOf, renderOrError, type PagesDeps } from "../context";
import { checkCsrf, formOf, htmlResponse, seeOther } from "../http";
import type { PageContext } from "../layout";
import { otherParty, pageOf, partyName } from "./parts";
import { RequestPage, RequestsPage, requestsListingOf, requestsParams, type RequestView } from "./requests";
import { CommunitiesPage, UploadsPage } from "./uploads";

type Json = Record<string, any>;

const SIZE = 20;
const str = (v: unknown) => (typeof v === "string" ? v : "");
const signInFirst = (ctx: PageContext) => seeOther(`/login?next=${encodeURIComponent(ctx.here)}`);

const DONE: Record<string, string> = {
  submit: "The request was submitted.",
  accept: "The request was accepted.",
  decline: "The request was declined.",
  cancel: "The request was cancelled.",
  comment: "Your comment was added.",
};

/** A comment typed as plain text, as the HTML the requests API stores (escaped, paragraphs kept). */
const commentHtml = (text: string) =>
  text
    .trim()
    .split(/\r?\n\s*\r?\n/)
    .map((p) => `<p>${Bun.escapeHTML(p).replace(/\r?\n/g, "<br>")}</p>`)
    .join("");

async function requestView(deps: PagesDeps, actor: Actor, id: string, notice?: RequestView["notice"]): Promise<RequestView> {
  const { requests } = deps.services;
  const request = (await requests.readRequest(actor, id)) as Json;
  const events = ((await requests.readTimeline(actor, id, { size: "100" })) as Json).hits.hits as Json[];
  const authors = new Map<string, string>();
  for (const event of events) {
    const [kind, who] = Object.entries((event.created_by ?? {}) as Json)[0] ?? [];
    const key = `${kind}:${String(who)}`;
    if (kind && !authors.has(key)) authors.set(key, await partyName(deps, actor, event.created_by, request));
  }
  const creator = await partyName(deps, actor, request.created_by, request);
  const receiver = await partyName(deps, actor, request.receiver);
  return { request, events, authors, creator, receiver, notice };
}

/** Runs a form's change; a refusal shows the request again with the service's message beside it. */
function changeRequest(deps: PagesDeps, actor: Actor, ctx: PageContext, id: string, done: string, change: () => Promise<void>) {
  return renderOrError(ctx, async () => {
    try {
      await change();
    } catch (error) {
      if (!(error instanceof HttpError) || error.status === 404 || error.status === 401) throw error;
      const fields = (error.errors ?? []).flatMap((e) => e.messages).join(" ");
      const view = await requestView(deps, actor, id, { ok: false, text: fields ? `${error.message} ${fields}` : error.message });
      return htmlResponse(<RequestPage ctx={ctx} view={view} />, error.status);
    }
    return seeOther(`/me/requests/${encodeURIComponent(id)}?done=${done}`);
  });
}

export const dashboardPages = (http: ActorContext, deps: PagesDeps) =>
  new Elysia()
    .use(http)
    .get("/me/uploads", async ({ actor, request, query }) => {
      const ctx = await pageContextOf(deps, actor, request);
      if (actor.kind !== "user") return signInFirst(ctx);
      return renderOrError(ctx, async () => {
        const q = str(query.q).trim();
        const page = pageOf(query);
        const result = (await deps.services.records.listUserRecords(actor, { ...(q ? { q } : {}), page: String(page), size: String(SIZE) })) as Json;
        // Drafts submitted to a community and waiting for its curators: their open review requests.
        const reviews = (await deps.services.requests.searchUserRequests(actor, { type: "community-submission", is_open: "true", size: "100" })) as Json;
        const inReview = new Set(((reviews.hits?.hits ?? []) as Json[]).map((r) => String(r.topic?.record ?? "")));
        return <UploadsPage ctx={ctx} result={result} q={q} page={page} size={SIZE} inReview={inReview} />;
      });
    })
    .get("/me/communities", async ({ actor, request, query }) => {
      const ctx = await pageContextOf(deps, actor, request);
      if (actor.kind !== "user") return signInFirst(ctx);
      return renderOrError(ctx, async () => {
        const page = pageOf(query);
        const result = (await deps.services.communities.searchUserCommunities(actor, { page: String(page), size: String(SIZE) })) as Json;
        return <CommunitiesPage ctx={ctx} result={result} page={page} size={SIZE} />;
      });
    })
    .get("/me/requests", async ({ actor, request, query }) => {
      const ctx = await pageContextOf(deps, actor, request);
      if (actor.kind !== "user") return signInFirst(ctx);
      return renderOrError(ctx, async () => {
        const listing = requestsListingOf(query, pageOf(query), SIZE);
        const result = (await deps.services.requests.searchUserRequests(actor, requestsParams(listing))) as Json;
        const rows = await Promise.all((result.hits.hits as Json[]).map(async (r) => ({ request: r, party: await otherParty(deps, actor, r) })));
        return <RequestsPage ctx={ctx} rows={rows} total={Number(result.hits.total) || 0} listing={listing} />;
      });
    })
    .get("/me/requests/:id", async ({ actor, request, params, query }) => {
      const ctx = await pageContextOf(deps, actor, request);
      if (actor.kind !== "user") return signInFirst(ctx);
      return renderOrError(ctx, async () => {
        const done = DONE[str(query.done)];
        return <RequestPage ctx={ctx} view={await requestView(deps, actor, params.id, done ? { ok: true, text: done } : undefined)} />;
      });
    })
    .get("/requests/:id", ({ params }) => seeOther(`/me/requests/${encodeURIComponent(params.id)}`))
    .post("/me/requests/:id/comments", async ({ actor, request, params, body }) => {
      const ctx = await pageContextOf(deps, actor, request);
      const form = formOf(body);
      return changeRequest(deps, actor, ctx, params.id, "comment", async () => {
        checkCsrf(actor, form);
        await deps.services.requests.createComment(actor, params.id, { payload: { content: commentHtml(form.get("content") ?? ""), format: "html" } });
      });
    })
    .post("/me/requests/:id/actions/:action", async ({ actor, request, params, body }) => {
      const ctx = await pageContextOf(deps, actor, request);
      const form = formOf(body);
      return changeRequest(deps, actor, ctx, params.id, params.action, async () => {
        checkCsrf(actor, form);
        const expires = (form.get("expires_at") ?? "").trim();
        await deps.services.requests.runAction(actor, params.id, params.action, expires ? { payload: { expires_at: expires } } : undefined);
      });
    });

/** The routes of this group that take forms (the hooks parse their bodies). */
export const DASHBOARD_FORM_ROUTES = ["POST /me/requests/:id/comments", "POST /me/requests/:id/actions/:action"];
