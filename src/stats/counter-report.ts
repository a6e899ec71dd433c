// The COUNTER Code of Practice for Research Data "Dataset Report" (DSR, SUSHI JSON as Make Data
// Count exchanges it): one report-datasets item per record, usage by month and access method.
import type { JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import { formatDate } from "../core/time";
import type { RecordDay } from "./store";

export interface ReportRecord {
  id: string;
  /** The record's JSON as the API shows it; null when the record is gone. */
  json: RecordDocument | null;
  days: RecordDay[];
}

export interface ReportInput {
  from: string;
  to: string;
  created: number;
  baseUrl: string;
  records: ReportRecord[];
}

type Instance = { "access-method": "regular" | "machine"; "metric-type": string; count: number };

/** The months the period covers, each clipped to the period: COUNTER reports usage per month. */
function months(from: string, to: string): { begin: string; end: string }[] {
  const out: { begin: string; end: string }[] = [];
  let begin = from;
  while (begin <= to) {
    const [y, m] = begin.split("-").map(Number) as [number, number];
    const last = formatDate(Date.UTC(y, m, 0));
    const end = last < to ? last : to;
    out.push({ begin, end });
    begin = formatDate(Date.UTC(y, m, 1));
  }
  return out;
}

/** Metric instances of some days; zero counts are left out as COUNTER reports do. */
function instances(days: RecordDay[]): Instance[] {
  const sum = (f: (d: RecordDay) => number) => days.reduce((n, d) => n + f(d), 0);
  const regularRequests = sum((d) => d.downloads - d.machineDownloads);
  const machineRequests = sum((d) => d.machineDownloads);
  const machineUniqueRequests = sum((d) => d.machineUniqueDownloads);
  const all: Instance[] = [
    // Investigations include requests (COUNTER): views plus downloads.
    { "access-method": "regular", "metric-type": "total-dataset-investigations", count: sum((d) => d.views) + regularRequests },
    { "access-method": "regular", "metric-type": "unique-dataset-investigations", count: sum((d) => d.uniqueInvestigations) - machineUniqueRequests },
    { "access-method": "regular", "metric-type": "total-dataset-requests", count: regularRequests },
    { "access-method": "regular", "metric-type": "unique-dataset-requests", count: sum((d) => d.uniqueDownloads - d.machineUniqueDownloads) },
    // Machines only download (their views are not counted).
    { "access-method": "machine", "metric-type": "total-dataset-investigations", count: machineRequests },
    { "access-method": "machine", "metric-type": "unique-dataset-investigations", count: machineUniqueRequests },
    { "access-method": "machine", "metric-type": "total-dataset-requests", count: machineRequests },
    { "access-method": "machine", "metric-type": "unique-dataset-requests", count: machineUniqueRequests },
  ];
  return all.filter((i) => i.count > 0);
}

function creatorName(c: JsonObject): string | null {
  const p = c?.person_or_org ?? {};
  if (p.family_name) return p.given_name ? `${p.family_name}, ${p.given_name}` : p.family_name;
  return typeof p.name === "string" ? p.name : null;
}

/** One report-datasets item: the dataset's identity (DSR "Dataset" attributes) and its performance. */
function dataset(record: ReportRecord, input: ReportInput) {
  const m = record.json?.metadata ?? {};
  const doi: string | undefined = record.json?.pids?.doi?.identifier;
  const published: string | undefined = typeof m.publication_date === "string" ? m.publication_date : undefined;
  const performance = months(input.from, input.to)
    .map((p) => ({ period: { "begin-date": p.begin, "end-date": p.end }, instance: instances(record.days.filter((d) => d.day >= p.begin && d.day <= p.end)) }))
    .filter((p) => p.instance.length > 0);
  return {
    "dataset-title": typeof m.title === "string" ? m.title : record.id, // Dataset_Title
    "dataset-id": [...(doi ? [{ type: "doi", value: doi }] : []), { type: "proprietary", value: record.id }], // Item_ID
    "dataset-contributors": (Array.isArray(m.creators) ? m.creators : [])
      .map(creatorName)
      .filter(Boolean)
      .map((name: string) => ({ type: "name", value: name })),
    "dataset-dates": published ? [{ type: "pub-date", value: published }] : [], // Publication_Date
    publisher: typeof m.publisher === "string" ? m.publisher : "",
    platform: new URL(input.baseUrl).host,
    uri: `${input.baseUrl}/records/${record.id}`,
    yop: published ? published.slice(0, 4) : "", // YOP
    "data-type": "dataset", // Data_Type
    performance,
  };
}

export function buildDatasetReport(input: ReportInput) {
  return {
    "report-header": {
      "report-name": "dataset report",
      "report-id": "DSR",
      release: "rd1",
      created: formatDate(input.created),
      "created-by": `Cairn ${input.baseUrl}`,
      "reporting-period": { "begin-date": input.from, "end-date": input.to },
      "report-filters": [],
      "report-attributes": [],
      exceptions: [],
    },
    "report-datasets": input.records.map((r) => dataset(r, input)).filter((d) => d.performance.length > 0),
  };
}
