// Checks a POST /api/stats body: free query names, each `{stat, params}` with a known stat, its
// required id parameter, and optional start_date/end_date. Every problem is one `errors` item.
import { validationError, type FieldError } from "../core/errors";
import { STAT_QUERIES, type StatName, type StatQuery } from "./model";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `YYYY-MM-DD`, or an ISO date-time whose day is taken; null when not a real date. */
export function parseDay(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  if (!m) return null;
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day) ? day : null;
}

function checkDate(params: Record<string, unknown>, key: "start_date" | "end_date", field: string, errors: FieldError[]): string | null {
  const value = params[key];
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string" || parseDay(value) === null) {
    errors.push({ field: `${field}.${key}`, messages: ["Not a valid date: use YYYY-MM-DD."] });
    return null;
  }
  return value;
}

function checkQuery(name: string, value: unknown, errors: FieldError[]): StatQuery | null {
  if (!isObject(value)) {
    errors.push({ field: name, messages: ["Must be an object with 'stat' and 'params'."] });
    return null;
  }
  const stat = value.stat;
  if (typeof stat !== "string" || !Object.hasOwn(STAT_QUERIES, stat)) {
    const known = Object.keys(STAT_QUERIES).join(", ");
    errors.push({
      field: `${name}.stat`,
      messages: [typeof stat === "string" ? `Unknown statistic '${stat}'. Known: ${known}.` : `Missing data for required field. Known statistics: ${known}.`],
    });
    return null;
  }
  const spec = STAT_QUERIES[stat as StatName];
  const params = value.params === undefined ? {} : value.params;
  if (!isObject(params)) {
    errors.push({ field: `${name}.params`, messages: ["Must be an object."] });
    return null;
  }
  const before = errors.length;
  const id = params[spec.param];
  if (typeof id !== "string" || id.trim() === "") errors.push({ field: `${name}.params.${spec.param}`, messages: ["Missing data for required field."] });
  const startDate = checkDate(params, "start_date", `${name}.params`, errors);
  const endDate = checkDate(params, "end_date", `${name}.params`, errors);
  if (startDate && endDate && parseDay(startDate)! > parseDay(endDate)!) errors.push({ field: `${name}.params.end_date`, messages: ["Must not be before start_date."] });
  if (errors.length > before) return null;
  return { name, stat: stat as StatName, id: (id as string).trim(), startDate, endDate };
}

/** The checked queries in the body's order; a 400 naming every problem otherwise. */
export function parseStatsRequest(body: unknown): StatQuery[] {
  if (!isObject(body)) throw validationError([{ field: "", messages: ['The body must be an object of named queries: {"<name>": {"stat": ..., "params": {...}}}.'] }]);
  const errors: FieldError[] = [];
  const queries: StatQuery[] = [];
  for (const [name, value] of Object.entries(body)) {
    const query = checkQuery(name, value, errors);
    if (query) queries.push(query);
  }
  if (errors.length) throw validationError(errors);
  return queries;
}
