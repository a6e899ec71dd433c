// Record operations. Published-record search lives here; drafts and publishing build on it.
import type { Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { parsePage, searchEnvelope } from "../core/paging";
import { readablePublishedFilter } from "./policy";
import { presentRecord } from "./present";
import * as store from "./store";

export type RecordsService = ReturnType<typeof createRecordsService>;

export function createRecordsService(deps: Deps) {
  const { db, config, links } = deps;
  const limits = { defaultSize: config.SEARCH_DEFAULT_PAGE_SIZE, maxSize: config.SEARCH_MAX_PAGE_SIZE, maxWindow: config.SEARCH_MAX_RESULTS_WINDOW };
  return {
    /** Published records the actor may read, newest first; latest versions unless `allversions`. */
    searchRecords(actor: Actor, query: { page?: string; size?: string; allversions?: string }) {
      const page = parsePage(query, limits);
      const allVersions = query.allversions === "true" || query.allversions === "1";
      const { rows, total } = store.listRecords(db, readablePublishedFilter(actor), { latestOnly: !allVersions, offset: page.offset, limit: page.size });
      return searchEnvelope({
        items: rows.map((row) => presentRecord(row, links)),
        total,
        page,
        url: (q) => links.api("/records", q),
        params: allVersions ? { allversions: "true" } : {},
        sortBy: "newest",
      });
    },
  };
}
