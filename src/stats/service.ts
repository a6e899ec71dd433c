// Statistics operations: recording views and downloads (cheap, buffered), aggregating them on a
// short timer, answering POST /api/stats, and the COUNTER export. The `stats` records show come
// from totals.ts, which this service refreshes; the Statistics screen's series from overview.ts.
import type { Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { JSON_MEDIA_TYPES, negotiate } from "../core/negotiation";
import type { RecordDocument } from "../core/record-document";
import { createAggregator, WATERMARK, type Popularity, type RunOptions } from "./aggregate";
import { buildDatasetReport, type ReportRecord } from "./counter-report";
import { createRecorder } from "./events";
import { createStatsOverview, parsePeriod, periodOf, type StatsGrowth } from "./overview";
import { DOWNLOAD, STAT_QUERIES, VIEW, type RecordDownloadInput, type RecordViewInput } from "./model";
import { requireExport, requireStatsRead, type RecordAccess } from "./policy";
import { presentQueryResult } from "./present";
import * as store from "./store";
import type { StatsTotals } from "./totals";
import { parseDay, parseStatsRequest } from "./validate";

export interface StatsDeps extends Deps {
  records: RecordAccess & { loadRecordJson(id: string): Promise<RecordDocument | null> };
  /** The all-time counts records show; forgotten after each aggregation. */
  totals: StatsTotals;
  /** Receives parents' new all-version unique views/downloads (the popularity sorts' columns). */
  onPopularity(rows: Popularity[]): void | Promise<void>;
  log(message: string): void;
  /** The Statistics screen's growth series, from records and files (files are built later: bound late in app.ts). */
  growth: StatsGrowth;
}

export type StatsService = ReturnType<typeof createStatsService>;

/** How often a process looks whether another one aggregated (its kept totals are then stale). */
export const TOTALS_CHECK_MS = 2000;

export function createStatsService(deps: StatsDeps) {
  const { db, clock, config, log } = deps;
  const enabled = config.STATS_ENABLED;
  const aggregator = createAggregator(db, deps.onPopularity);
  let aggregationTimer: ReturnType<typeof setTimeout> | null = null;
  let popularityTimer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  // Popularity (the search sorts) follows within twelve intervals (a minute by default); counts on
  // records within one: re-ordering the index is held back while views stream in.
  const POPULARITY_EVERY_MS = 12 * config.STATS_AGGREGATE_INTERVAL_MS;
  let popularityAt = 0;

  /**
   * A run that held popularity back leaves it for a later run without new events to start: this
   * one, when the hold-back ends. (Without it, the last views of a burst reached the sorts only
   * with the next view or the hourly job.)
   */
  function schedulePopularity(now: number) {
    if (popularityTimer || closed) return;
    popularityTimer = setTimeout(
      () => {
        popularityTimer = null;
        popularityAt = performance.now();
        aggregate({ deferPopularity: false }).catch((err) => log(`stats: aggregation failed: ${(err as Error).message}`));
      },
      Math.max(0, POPULARITY_EVERY_MS - (now - popularityAt)),
    );
    popularityTimer.unref?.();
  }

  // The run under way, which close() waits for: closing the database under it would fail its
  // remaining statements (on PostgreSQL the pool refuses them once it is ending).
  let running: Promise<unknown> = Promise.resolve();
  function aggregate(options: RunOptions = {}) {
    const run = (async () => {
      await recorder.flush();
      try {
        return await aggregator.run(options);
      } finally {
        // The watermark this run left is read before the totals are forgotten, and taken as seen:
        // the check below then clears them again only for another process's run, not this one's
        // (clearing twice a run left most record reads to miss the totals kept in memory).
        const watermark = enabled ? await store.readState(db, WATERMARK).catch(() => undefined) : undefined;
        deps.totals.clear();
        if (watermark !== undefined) seenWatermark = watermark;
      }
    })();
    running = run.catch(() => undefined);
    return run;
  }

  // New events are folded in within STATS_AGGREGATE_INTERVAL_MS of being written: counts show
  // on records and in POST /api/stats seconds after a view, without a job row every few seconds.
  function scheduleAggregation() {
    if (aggregationTimer || closed) return;
    aggregationTimer = setTimeout(() => {
      aggregationTimer = null;
      const now = performance.now();
      const deferPopularity = now - popularityAt < POPULARITY_EVERY_MS;
      if (!deferPopularity) popularityAt = now;
      else schedulePopularity(now);
      aggregate({ deferPopularity }).catch((err) => log(`stats: aggregation failed: ${(err as Error).message}`));
    }, config.STATS_AGGREGATE_INTERVAL_MS);
    aggregationTimer.unref?.();
  }

  const recorder = createRecorder({ db, clock, log, onWritten: scheduleAggregation });

  // Other processes aggregate too (the workers of one server, other machines): the totals kept in
  // memory are forgotten when the watermark moves, so a record shows another process's counts
  // within TOTALS_CHECK_MS of its aggregation.
  let seenWatermark: string | null | undefined;
  async function checkOtherAggregations() {
    const watermark = await store.readState(db, WATERMARK);
    if (seenWatermark !== undefined && watermark !== seenWatermark) deps.totals.clear();
    seenWatermark = watermark;
  }
  const totalsCheck = enabled ? setInterval(() => void checkOtherAggregations().catch(() => {}), TOTALS_CHECK_MS) : null;
  totalsCheck?.unref?.();
  /** COUNTER-style Dataset Report (DSR) of every record with usage between two days (inclusive). */
  async function exportReport(actor: Actor, from: string, to: string, now = clock.now()) {
    requireExport(actor);
    const days = await store.listRecordDays(db, from, to);
    const records = new Map<string, ReportRecord>();
    for (const day of days) {
      let r = records.get(day.recordId);
      if (!r) records.set(day.recordId, (r = { id: day.recordId, json: null, days: [] }));
      r.days.push(day);
    }
    // Each record's JSON once, after the rows are grouped.
    for (const r of records.values()) r.json = await deps.records.loadRecordJson(r.id);
    return buildDatasetReport({ from, to, created: now, baseUrl: config.BASE_URL, records: [...records.values()] });
  }

  const overview = createStatsOverview({ db, clock, loadRecordJson: deps.records.loadRecordJson, growth: deps.growth });
  // Clients send few distinct Accept headers: the verdict is remembered instead of parsed per view.
  const jsonAccepts = new Map<string, boolean>();
  function acceptsJson(accept: string | null): boolean {
    if (!accept) return true;
    let json = jsonAccepts.get(accept);
    if (json === undefined) {
      json = negotiate(accept, JSON_MEDIA_TYPES) !== null;
      if (jsonAccepts.size >= 1000) jsonAccepts.clear();
      jsonAccepts.set(accept, json);
    }
    return json;
  }

  return {
    /** A published record was served as JSON: count a view unless it came from a robot or a machine (at once for a visitor seen today). */
    recordView(input: RecordViewInput): boolean | Promise<boolean> {
      if (!enabled || !acceptsJson(input.accept)) return false;
      return recorder.record({ kind: VIEW, recordId: input.recordId, parentId: input.parentId, actor: input.actor, visitor: input.visitor, fileKey: null, bytes: 0 });
    },

    /** A file content response sent bytes (whole file or first range): count a download; machines are flagged. */
    async recordDownload(input: RecordDownloadInput): Promise<boolean> {
      if (!enabled) return false;
      return recorder.record({
        kind: DOWNLOAD,
        recordId: input.recordId,
        parentId: input.parentId,
        actor: input.actor,
        visitor: input.visitor,
        fileKey: input.fileKey,
        bytes: Math.max(0, input.bytes),
      });
    },

    /** POST /api/stats: each named query's counts; restricted records only for who may read them. */
    async query(actor: Actor, body: unknown) {
      const queries = parseStatsRequest(body);
      const result: Record<string, unknown> = {};
      for (const q of queries) {
        const scope = STAT_QUERIES[q.stat].scope;
        await requireStatsRead(deps.records, actor, scope, q.id);
        const counts = await store.sumDaily(db, scope, q.id, q.startDate && parseDay(q.startDate), q.endDate && parseDay(q.endDate));
        result[q.name] = presentQueryResult(q, counts);
      }
      return result;
    },

    /** Folds new events into the totals now (`cairn jobs run stats-aggregate`, tests). */
    aggregate,

    /** What the TOTALS_CHECK_MS timer does: forgets the totals kept in memory when another process aggregated since the last look (tests call it). */
    checkOtherAggregations,

    /** Deletes raw events past STATS_EVENTS_RETENTION_DAYS that were aggregated. */
    pruneEvents: () => aggregator.prune(clock.now(), config.STATS_EVENTS_RETENTION_DAYS),

    /** Pushes every parent's popularity to the search index again (after `cairn reindex`). */
    async refreshPopularity() {
      const rows = await store.listParentPopularity(db, null);
      await deps.onPopularity(rows);
      return rows.length;
    },

    /** COUNTER-style Dataset Report (DSR) of every record with usage between two days (inclusive). */
    exportReport,

    /** The Statistics screen: per day (30 days) or month (12) views, downloads, new records, storage; the top records (administrators). */
    readOverview: overview.readOverview,

    /** The Dataset Report of the Statistics screen's period (`days` or `months`), with its first and last day (administrators). */
    async exportPeriodReport(actor: Actor, query: { period?: unknown }) {
      requireExport(actor);
      const { from, to } = periodOf(parsePeriod(query.period), clock.now());
      return { from, to, report: await exportReport(actor, from, to) };
    },

    /** Writes buffered events; used on shutdown with close(). */
    flush: () => recorder.flush(),
    pendingEvents: () => recorder.pending(),

    /** Clean shutdown: no more timers, the aggregation under way finished, buffered events written. */
    async close() {
      closed = true;
      if (totalsCheck) clearInterval(totalsCheck);
      if (aggregationTimer) clearTimeout(aggregationTimer);
      if (popularityTimer) clearTimeout(popularityTimer);
      aggregationTimer = null;
      await running;
      await recorder.close();
    },
  };
}
