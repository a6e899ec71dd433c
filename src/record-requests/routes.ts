// HTTP route of a record's requests: `GET /api/records/{id}/requests` (every record's `requests` link).
import { Elysia } from "elysia";
import type { ActorContext } from "../core/http";
import { queryParams } from "../core/links";
import { requestSearchQuery } from "../requests/model";
import type { RecordRequestsService } from "./service";

export const recordRequestsRoutes = (http: ActorContext, recordRequests: RecordRequestsService) =>
  new Elysia().use(http).get("/api/records/:id/requests", ({ actor, params, request }) => recordRequests.searchRecordRequests(actor, params.id, queryParams(request.url)), {
    query: requestSearchQuery,
    detail: { summary: "Search the requests about a record (reviews, inclusions, access requests) that the caller may read", tags: ["Requests"] },
  });
