// HTTP route of statistics: POST /api/stats (InvenioRDM's statistics query endpoint).
import { Elysia } from "elysia";
import type { ActorContext } from "../core/http";
import type { StatsService } from "./service";

export const statsRoutes = (http: ActorContext, stats: StatsService) =>
  new Elysia().use(http).post("/api/stats", ({ actor, body }) => stats.query(actor, body), {
    detail: {
      summary: "Query usage statistics",
      description:
        'Body: {"<any name>": {"stat": "record-view" | "record-view-all-versions" | "record-download" | "record-download-all-versions", "params": {"recid" or "parent_recid", "start_date"?, "end_date"?}}}. Answers one member per name.',
      tags: ["Statistics"],
    },
  });
