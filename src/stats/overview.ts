// The Statistics screen's numbers (administrators): views, downloads, new records and storage used
// per day over the last 30 days or per month over the last 12 (by the clock), and the most viewed
// and downloaded records of the same period.
import { requireAdmin, type Actor } from "../core/actor";
import { invalidQuery } from "../core/errors";
import type { RecordDocument } from "../core/record-document";
import { DAY_MS, formatDate, type Clock } from "../core/time";
import type { Db } from "../db/port";
import * as store from "./store";

export const STATS_PERIODS = ["days", "months"] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];

/** How many records each "most viewed / downloaded" list holds. */
export const TOP_RECORDS = 10;

export interface StatsBucket {
  /** `YYYY-MM-DD` (a day) or `YYYY-MM` (a month), UTC. */
  key: string;
  views: number;
  downloads: number;
  newRecords: number;
  /** Bytes of the stored files at the bucket's end (see storage in the README). */
  storageBytes: number;
}

export interface TopRecord {
  id: string;
  /** The record's title; null when the record cannot be loaded any more. */
  title: string | null;
  count: number;
}

export interface StatsOverview {
  period: StatsPeriod;
  /** The first and last day covered (inclusive), `YYYY-MM-DD`. */
  from: string;
  to: string;
  buckets: StatsBucket[];
  totals: { views: number; downloads: number; newRecords: number };
  mostViewed: TopRecord[];
  mostDownloaded: TopRecord[];
}

export interface OverviewDeps {
  db: Db;
  clock: Clock;
  loadRecordJson(id: string): Promise<RecordDocument | null>;
  growth: StatsGrowth;
}

/** The series other areas count for the Statistics screen: published versions (records) and stored bytes (files) by UTC day number. */
export interface StatsGrowth {
  publishedPerDay(fromMs: number, toMs: number): Promise<{ day: number; count: number }[]>;
  storedBytes: {
    before(fromMs: number): Promise<number>;
    perDay(fromMs: number, toMs: number): Promise<{ day: number; bytes: number }[]>;
  };
}

/** `days` (the default) or `months`; anything else is a 400 naming the parameter. */
export function parsePeriod(value: unknown): StatsPeriod {
  if (value === undefined || value === "") return "days";
  if (typeof value === "string" && (STATS_PERIODS as readonly string[]).includes(value)) return value as StatsPeriod;
  throw invalidQuery([{ field: "period", messages: [`Must be one of: ${STATS_PERIODS.join(", ")}.`] }]);
}

/** The period's first and last day (inclusive) and its bucket keys, oldest first. */
export function periodOf(period: StatsPeriod, now: number): { from: string; to: string; keys: string[] } {
  const today = Math.floor(now / DAY_MS);
  const to = formatDate(today * DAY_MS);
  if (period === "days") {
    const keys = Array.from({ length: 30 }, (_, i) => formatDate((today - 29 + i) * DAY_MS));
    return { from: keys[0]!, to, keys };
  }
  const date = new Date(today * DAY_MS);
  const keys = Array.from({ length: 12 }, (_, i) => formatDate(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 11 + i, 1)).slice(0, 7));
  return { from: `${keys[0]}-01`, to, keys };
}

const titleOf = (json: RecordDocument | null) => {
  const title = (json as { metadata?: { title?: unknown } } | null)?.metadata?.title;
  return typeof title === "string" ? title : null;
};

export function createStatsOverview(deps: OverviewDeps) {
  const { db, clock } = deps;

  async function topRecords(by: "views" | "downloads", from: string, to: string): Promise<TopRecord[]> {
    const rows = await store.listTopRecords(db, by, from, to, TOP_RECORDS);
    const top: TopRecord[] = [];
    for (const row of rows) top.push({ id: row.recordId, title: titleOf(await deps.loadRecordJson(row.recordId)), count: row.count });
    return top;
  }

  return {
    /** The period's series and top records (administrators). */
    async readOverview(actor: Actor, query: { period?: unknown } = {}): Promise<StatsOverview> {
      requireAdmin(actor);
      const period = parsePeriod(query.period);
      const { from, to, keys } = periodOf(period, clock.now());
      const bucketOf = period === "days" ? (day: string) => day : (day: string) => day.slice(0, 7);
      const buckets = new Map(keys.map((key) => [key, { key, views: 0, downloads: 0, newRecords: 0, storageBytes: 0 }]));
      for (const row of await store.listDailySums(db, from, to)) {
        const bucket = buckets.get(bucketOf(row.day));
        if (!bucket) continue;
        bucket.views += row.views;
        bucket.downloads += row.downloads;
      }
      const fromMs = Date.parse(`${from}T00:00:00Z`);
      const toMs = Date.parse(`${to}T00:00:00Z`) + DAY_MS;
      for (const row of await deps.growth.publishedPerDay(fromMs, toMs)) {
        const bucket = buckets.get(bucketOf(formatDate(row.day * DAY_MS)));
        if (bucket) bucket.newRecords += row.count;
      }
      // Storage is cumulative: each bucket holds what was stored by its end.
      const added = new Map<string, number>();
      for (const row of await deps.growth.storedBytes.perDay(fromMs, toMs)) {
        const key = bucketOf(formatDate(row.day * DAY_MS));
        added.set(key, (added.get(key) ?? 0) + row.bytes);
      }
      let storage = await deps.growth.storedBytes.before(fromMs);
      for (const bucket of buckets.values()) {
        storage += added.get(bucket.key) ?? 0;
        bucket.storageBytes = storage;
      }
      const list = [...buckets.values()];
      const sum = (field: "views" | "downloads" | "newRecords") => list.reduce((total, b) => total + b[field], 0);
      return {
        period,
        from,
        to,
        buckets: list,
        totals: { views: sum("views"), downloads: sum("downloads"), newRecords: sum("newRecords") },
        mostViewed: await topRecords("views", from, to),
        mostDownloaded: await topRecords("downloads", from, to),
      };
    },
  };
}
