// Shapes of statistics: events as recorded, counts, and the queries of POST /api/stats.
import type { Actor } from "../core/actor";
import type { Visitor } from "../core/visitor";

export const VIEW = 0;
export const DOWNLOAD = 1;

/** An event ready to be written (the visitor already hashed). */
export interface NewEvent {
  kind: typeof VIEW | typeof DOWNLOAD;
  ts: number;
  recordId: string;
  parentId: string;
  visitor: string;
  fileKey: string | null;
  bytes: number;
  isMachine: boolean;
}

/** A stored event as the aggregation reads it (SQL column names). */
export interface EventRow {
  id: number;
  kind: number;
  ts: number;
  record_key: number;
  visitor_key: number;
  bytes: number;
  is_machine: number;
}

export interface Counts {
  views: number;
  uniqueViews: number;
  downloads: number;
  uniqueDownloads: number;
  volume: number;
}

/** One day's totals of a record (machine_* set) or a parent. */
export interface DayTotals extends Counts {
  id: string;
  day: string;
  parentId: string;
  uniqueInvestigations: number;
  machineDownloads: number;
  machineUniqueDownloads: number;
  machineVolume: number;
}

/** Who used which published record: what every counted event starts from. */
export interface RecordUse {
  recordId: string;
  parentId: string;
  actor: Actor;
  visitor: Visitor;
}

/** What the record route hands over when it served a record (GET /api/records/{id}). */
export interface RecordViewInput extends RecordUse {
  /** The Accept header: only reads of the record JSON are views. */
  accept: string | null;
}

/** What the files module hands over for each file content response that sends bytes. */
export interface RecordDownloadInput extends RecordUse {
  fileKey: string;
  /** Bytes sent (the whole file, or the first range). */
  bytes: number;
}

/** The default statistics queries of InvenioRDM and the parameter each one requires. */
export const STAT_QUERIES = {
  "record-view": { param: "recid", scope: "record", metric: "views" },
  "record-view-all-versions": { param: "parent_recid", scope: "parent", metric: "views" },
  "record-download": { param: "recid", scope: "record", metric: "downloads" },
  "record-download-all-versions": { param: "parent_recid", scope: "parent", metric: "downloads" },
} as const;

export type StatName = keyof typeof STAT_QUERIES;

/** One checked query of a POST /api/stats body. */
export interface StatQuery {
  name: string;
  stat: StatName;
  id: string;
  startDate: string | null;
  endDate: string | null;
}
