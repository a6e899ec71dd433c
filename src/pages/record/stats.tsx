// A record's views and downloads on its landing page: this version and all versions, from the
// `stats` the records service gives the record (the REST API's), counted once per visitor and hour
// as InvenioRDM counts them (unique views and downloads).
import type { JsonObject } from "../../core/json";
import { formatCount } from "../numbers";

type Counts = { unique_views?: unknown; unique_downloads?: unknown };

const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? formatCount(value) : "0");

export function RecordStats({ stats }: { stats: JsonObject | null | undefined }) {
  // No `stats`: statistics are off (STATS_ENABLED), or a draft.
  if (!stats || typeof stats !== "object") return null;
  const version: Counts = stats.this_version ?? {};
  const all: Counts = stats.all_versions ?? {};
  return (
    <section class="card record-stats" aria-labelledby="stats-heading">
      <h2 id="stats-heading">Statistics</h2>
      <table class="stats">
        <caption class="sr-only">Views and downloads of this record</caption>
        <thead>
          <tr>
            <td></td>
            <th scope="col">This version</th>
            <th scope="col">All versions</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Views</th>
            <td>{count(version.unique_views)}</td>
            <td>{count(all.unique_views)}</td>
          </tr>
          <tr>
            <th scope="row">Downloads</th>
            <td>{count(version.unique_downloads)}</td>
            <td>{count(all.unique_downloads)}</td>
          </tr>
        </tbody>
      </table>
      <p class="muted small">Each person counts once an hour.</p>
    </section>
  );
}
