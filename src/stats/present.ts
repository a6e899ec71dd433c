// Counts -> the API's JSON: the `stats` member of records and the results of POST /api/stats.
import { STAT_QUERIES, type Counts, type StatQuery } from "./model";

const presentCounts = (c: Counts) => ({
  views: c.views,
  unique_views: c.uniqueViews,
  downloads: c.downloads,
  unique_downloads: c.uniqueDownloads,
  data_volume: c.volume,
});

/** A record's `stats`: `this_version` and `all_versions` (InvenioRDM's record field). */
export const presentRecordStats = (version: Counts, all: Counts) => ({ this_version: presentCounts(version), all_versions: presentCounts(all) });

/** One query's result: the echoed period and id, then the view or download counts (invenio-stats' shapes). */
export function presentQueryResult(query: StatQuery, c: Counts) {
  const spec = STAT_QUERIES[query.stat];
  const head = { start_date: query.startDate, end_date: query.endDate, [spec.param]: query.id };
  if (spec.metric === "views") return { ...head, views: c.views, unique_views: c.uniqueViews };
  return { ...head, downloads: c.downloads, unique_downloads: c.uniqueDownloads, data_volume: c.volume };
}
