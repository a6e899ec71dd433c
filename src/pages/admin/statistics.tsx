// Administration → Statistics: views, downloads, new records and storage used per day (the last 30
// days) or per month (the last 12) as charts drawn on the server, the most viewed and downloaded
// records of the period, and the COUNTER Dataset Report of the same period to download.
import type { StatsOverview, TopRecord } from "../../stats/overview";
import { BarChart, LineChart, type ChartPoint } from "../charts";
import type { PageContext } from "../layout";
import { DataTable } from "../table";
import { AdminPage, bytes, queryOf, TableBox } from "./frame";

export const STATISTICS = "/administration/statistics";
export const STATISTICS_REPORT = `${STATISTICS}/report`;

const PERIODS: [StatsOverview["period"], string][] = [
  ["days", "Last 30 days, by day"],
  ["months", "Last 12 months, by month"],
];

/** The period's links (the default, days, without a query). */
const periodHref = (period: StatsOverview["period"]) => STATISTICS + queryOf({ period: period === "days" ? null : period });

function PeriodChoice({ period }: { period: StatsOverview["period"] }) {
  return (
    <nav class="filters" aria-label="Period">
      {PERIODS.map(([value, label]) => (
        <a href={periodHref(value)} aria-current={value === period ? "page" : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}

function TopRecords({ id, title, records, unit }: { id: string; title: string; records: TopRecord[]; unit: string }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {records.length === 0 ? (
        <p class="muted">None in this period.</p>
      ) : (
        <TableBox label={`Table of ${title.toLowerCase()}`}>
          <DataTable caption={title} columns={["#", "Record", unit]}>
            {records.map((r, i) => (
              <tr data-top-record={r.id}>
                <td>{String(i + 1)}</td>
                <th scope="row">
                  <a href={`/records/${r.id}`}>{r.title ?? r.id}</a>
                </th>
                <td>{String(r.count)}</td>
              </tr>
            ))}
          </DataTable>
        </TableBox>
      )}
    </section>
  );
}

export function StatisticsPage({ ctx, mailOff, overview, counting }: { ctx: PageContext; mailOff: boolean; overview: StatsOverview; counting: boolean }) {
  const byDay = overview.period === "days";
  const points = (field: "views" | "downloads" | "newRecords" | "storageBytes"): ChartPoint[] =>
    overview.buckets.map((b) => ({ label: byDay ? b.key.slice(5) : b.key, value: b[field] }));
  const xLabel = byDay ? "Day" : "Month";
  const span = `${overview.from} to ${overview.to}`;
  return (
    <AdminPage ctx={ctx} title="Statistics" screen={STATISTICS} mailOff={mailOff}>
      <PeriodChoice period={overview.period} />
      {counting ? null : (
        <p class="notice" role="note">
          Views and downloads are not counted (STATS_ENABLED is off): their charts show what was counted before.
        </p>
      )}
      <p>
        From {overview.from} to {overview.to} (UTC): <strong>{String(overview.totals.views)}</strong> views, <strong>{String(overview.totals.downloads)}</strong> downloads,{" "}
        <strong>{String(overview.totals.newRecords)}</strong> new records.
      </p>
      <section class="card" aria-labelledby="counter-report">
        <h2 id="counter-report">COUNTER Dataset Report</h2>
        <p>
          The usage of every record from {span}, as a COUNTER Code of Practice for Research Data Dataset Report (JSON), the same as <code>cairn stats export</code>.
        </p>
        <a class="button secondary" href={STATISTICS_REPORT + queryOf({ period: byDay ? null : overview.period })} download>
          Download the report of {span}
        </a>
      </section>
      <div class="charts">
        <BarChart id="views" title={`Views, ${span}`} points={points("views")} xLabel={xLabel} yLabel="Views" />
        <BarChart id="downloads" title={`Downloads, ${span}`} points={points("downloads")} xLabel={xLabel} yLabel="Downloads" />
        <BarChart id="new-records" title={`New records, ${span}`} points={points("newRecords")} xLabel={xLabel} yLabel="New records" />
        <LineChart id="storage" title={`Storage used, ${span}`} points={points("storageBytes")} xLabel={xLabel} yLabel="Stored" format={bytes} />
      </div>
      <TopRecords id="most-viewed" title="Most viewed records" records={overview.mostViewed} unit="Views" />
      <TopRecords id="most-downloaded" title="Most downloaded records" records={overview.mostDownloaded} unit="Downloads" />
    </AdminPage>
  );
}
