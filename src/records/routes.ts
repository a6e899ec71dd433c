// HTTP routes of records.
import { Elysia } from "elysia";
import type { ActorContext } from "../core/http";
import { recordSearchQuery } from "./model";
import type { RecordsService } from "./service";

export const recordsRoutes = (http: ActorContext, records: RecordsService) =>
  new Elysia({ prefix: "/api/records" })
    .use(http)
    .get("", ({ actor, query }) => records.searchRecords(actor, query), {
      query: recordSearchQuery,
      detail: { summary: "Search published records", tags: ["Records"] },
    });
