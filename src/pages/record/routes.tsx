// The record pages: the landing page `/records/{id}` (every record's `self_html`, where DOIs
// resolve) with its Signposting `Link` header, `/records/{id}/latest`, inline file previews, and
// the access-request form. Records are read through the services as the caller (session cookie,
// token or secret link), so a page answers what the API answers them.
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import { HttpError } from "../../core/errors";
import { isHeadRequest, type ActorContext } from "../../core/http";
import { visitorOf } from "../../core/visitor";
import { registerAsset } from "../assets";
import { pageContextOf, renderOrError, type PagesDeps } from "../context";
import { mailIsOff } from "../guest-forms";
import { checkCsrf, formOf, htmlResponse } from "../http";
import type { PageContext } from "../layout";
import recordJs from "../static/record.js" with { type: "text" };
import shareJs from "../static/share.js" with { type: "text" };
import { AccessRequestPage, AccessRequestedPage, accessRequestBody, fieldErrorsOf } from "./request-page";
import { LandingPage } from "./landing";
import { withToken } from "./links";
import { keyOfPath, previewResponse } from "./preview";
import { loadDraftView, loadRecordView } from "./view";
import { sharePage } from "./share-page";
import { verifyLinkAnswer, verifyLinkPage, VERIFY_PATH } from "./verify";
import { loadShareView } from "./share-view";

registerAsset("record.js", recordJs);
registerAsset("share.js", shareJs);

/**
 * A redirect the records service answers (a parent id to its latest version, `/latest`) points at
 * the API; the page sends people to the landing page of the same record instead. 302 either way:
 * "the latest version" changes with every new one. (A 410's tombstone is shown by the error page.)
 */
function pageAnswerOf(error: unknown, actor: Actor): Response | null {
  if (!(error instanceof HttpError)) return null;
  const location = error.extra.location;
  if ((error.status === 301 || error.status === 302) && typeof location === "string") {
    const target = new URL(location).pathname.replace(/^\/api\/records\//, "/records/");
    return new Response(null, { status: 302, headers: { Location: withToken(target, actor.linkToken) } });
  }
  return null;
}

/** Runs a page handler, turning the services' redirects into pages; refusals and tombstones become the error page. */
function recordPage(ctx: PageContext, actor: Actor, handler: () => Promise<Response> | Response) {
  return renderOrError(ctx, async () => {
    try {
      return await handler();
    } catch (error) {
      const answer = pageAnswerOf(error, actor);
      if (answer) return answer;
      throw error;
    }
  });
}

const isNotFound = (error: unknown) => error instanceof HttpError && error.status === 404;

export const recordPages = (http: ActorContext, deps: PagesDeps) => {
  const { services } = deps;
  const baseUrl = services.deps.links.baseUrl;
  return new Elysia()
    .use(http)
    .get("/records/:id", async ({ actor, request, params, server }) => {
      const ctx = await pageContextOf(deps, actor, request);
      const query = new URL(request.url).searchParams;
      return recordPage(ctx, actor, async () => {
        if (query.get("preview") === "1") {
          // A draft, for whoever may preview it; a record without a draft shows as published.
          const draft = await loadDraftView(deps, actor, params.id).catch((error) => {
            if (isNotFound(error)) return null;
            throw error;
          });
          if (draft) return htmlResponse(<LandingPage ctx={ctx} view={draft} baseUrl={baseUrl} />);
        }
        const view = await loadRecordView(deps, actor, params.id, query.get("style"));
        // A landing page read is a view of the record, as InvenioRDM counts it (robots are left out).
        await services.stats.recordView({
          recordId: view.record.id,
          parentId: view.record.parent.id,
          actor,
          visitor: visitorOf(deps.addressOf(request, server), request),
          accept: null,
        });
        // Sharing is the parent's: every version offers it to whoever manages the record.
        const share = await loadShareView(deps, actor, view.record);
        return htmlResponse(<LandingPage ctx={ctx} view={view} baseUrl={baseUrl} share={share} />, 200, view.signposting ? { Link: view.signposting } : {});
      });
    })
    .get(VERIFY_PATH, ({ actor, request, query }) => verifyLinkPage(deps, actor, request, query.token))
    .post(VERIFY_PATH, ({ actor, request, body }) => verifyLinkAnswer(deps, actor, request, body))
    .get("/records/:id/share", async ({ actor, request, params }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return recordPage(ctx, actor, async () => htmlResponse(await sharePage(ctx, deps, actor, params.id)));
    })
    .get("/records/:id/latest", async ({ actor, request, params }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return recordPage(ctx, actor, () => services.records.latestVersion(actor, params.id));
    })
    .get("/records/:id/preview/*", async ({ actor, request, params }) => {
      const ctx = await pageContextOf(deps, actor, request);
      const isDraft = new URL(request.url).searchParams.get("preview") === "1";
      return recordPage(ctx, actor, () =>
        previewResponse(services.files, actor, params.id, isDraft, keyOfPath(params["*"]), {
          head: isHeadRequest(request),
          range: request.headers.get("range"),
          ifRange: request.headers.get("if-range"),
          ifNoneMatch: request.headers.get("if-none-match"),
          ifModifiedSince: request.headers.get("if-modified-since"),
        }),
      );
    })
    .post("/records/:id/access/request", async ({ actor, request, params, body }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return recordPage(ctx, actor, async () => {
        const form = formOf(body);
        // Signed in through the session cookie: the form must come from this site.
        if (actor.csrf) checkCsrf(actor, form);
        const action = withToken(`/records/${encodeURIComponent(params.id)}/access/request`, actor.linkToken);
        try {
          const result = (await services.accessRequests.requestAccess(actor, params.id, accessRequestBody(form))) as Record<string, unknown>;
          return htmlResponse(
            <AccessRequestedPage ctx={ctx} recordUrl={withToken(`/records/${encodeURIComponent(params.id)}`, actor.linkToken)} result={result} mailOff={mailIsOff(deps)} />,
          );
        } catch (error) {
          if (!(error instanceof HttpError) || error.status !== 400) throw error;
          // Refused input: the form again, with what was typed and why.
          return htmlResponse(<AccessRequestPage ctx={ctx} action={action} recordId={params.id} form={form} message={error.message} errors={fieldErrorsOf(error)} />, 400);
        }
      });
    });
};

/** The routes of this group that take forms (the hooks parse their bodies). */
export const RECORD_FORM_ROUTES = ["POST /records/:id/access/request", "POST /access/requests/verify"];
