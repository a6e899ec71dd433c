// HTTP routes of the generic requests API (InvenioRDM's invenio-requests): requests, their actions,
// comments and timeline, the caller's requests, and a community's requests.
import { Elysia } from "elysia";
import { actionPayloadBody } from "../core/body";
import { revisionEtag } from "../core/etag";
import type { ActorContext } from "../core/http";
import { queryParams } from "../core/links";
import { requestSearchQuery } from "./model";
import type { RequestsService } from "./service";

const tags = ["Requests"];

/** Sets the ETag from the returned resource's revision. */
const withEtag = <T extends { revision_id: number }>(set: { headers: Record<string, unknown> }, body: T) => {
  set.headers.etag = revisionEtag(body.revision_id);
  return body;
};

export const requestsRoutes = (http: ActorContext, requests: RequestsService) =>
  new Elysia()
    .use(http)
    .get("/api/requests", ({ actor, request }) => requests.searchRequests(actor, queryParams(request.url)), {
      query: requestSearchQuery,
      detail: { summary: "Search the requests the caller may read (administrators: all)", tags },
    })
    .get("/api/user/requests", ({ actor, request }) => requests.searchUserRequests(actor, queryParams(request.url)), {
      query: requestSearchQuery,
      detail: { summary: "Search the caller's requests (created, received, or of communities they curate)", tags },
    })
    .get("/api/communities/:id/requests", ({ actor, params, request }) => requests.searchCommunityRequests(actor, params.id, queryParams(request.url)), {
      query: requestSearchQuery,
      detail: { summary: "Search a community's requests (its curators, managers and owners)", tags },
    })
    .get("/api/requests/:id", async ({ actor, params, set }) => withEtag(set, await requests.readRequest(actor, params.id)), {
      detail: { summary: "Read a request", tags },
    })
    .put(
      "/api/requests/:id",
      async ({ actor, params, body, request, set }) => withEtag(set, await requests.updateRequest(actor, params.id, body, request.headers.get("if-match"))),
      {
        detail: { summary: "Change a request's title and description (its creator, while created or submitted)", tags },
      },
    )
    .delete(
      "/api/requests/:id",
      async ({ actor, params, request, set }) => {
        await requests.deleteRequest(actor, params.id, request.headers.get("if-match"));
        set.status = 204;
        return null;
      },
      { detail: { summary: "Delete a request that is not yet submitted", tags } },
    )
    .post("/api/requests/:id/actions/:action", async ({ actor, params, body, set }) => withEtag(set, await requests.runAction(actor, params.id, params.action, body)), {
      body: actionPayloadBody,
      detail: { summary: "Run an action (submit, accept, decline, cancel, expire), optionally with a comment", tags },
    })
    .get("/api/requests/:id/timeline", ({ actor, params, request }) => requests.readTimeline(actor, params.id, queryParams(request.url)), {
      query: requestSearchQuery,
      detail: { summary: "A request's comments and log events, oldest first", tags },
    })
    .post(
      "/api/requests/:id/comments",
      async ({ actor, params, body, set }) => {
        set.status = 201;
        return withEtag(set, await requests.createComment(actor, params.id, body));
      },
      { detail: { summary: "Comment on a request", tags } },
    )
    .get("/api/requests/:id/comments/:event_id", async ({ actor, params, set }) => withEtag(set, await requests.readComment(actor, params.id, params.event_id)), {
      detail: { summary: "Read a comment (or any event of the timeline)", tags },
    })
    .put(
      "/api/requests/:id/comments/:event_id",
      async ({ actor, params, body, request, set }) => withEtag(set, await requests.updateComment(actor, params.id, params.event_id, body, request.headers.get("if-match"))),
      { detail: { summary: "Change a comment (its author)", tags } },
    )
    .delete(
      "/api/requests/:id/comments/:event_id",
      async ({ actor, params, request, set }) => {
        await requests.deleteComment(actor, params.id, params.event_id, request.headers.get("if-match"));
        set.status = 204;
        return null;
      },
      { detail: { summary: "Delete a comment (its author): it is blanked into a log event", tags } },
    );
