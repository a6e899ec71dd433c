// EDTF level 0 dates and intervals as InvenioRDM accepts them for publication_date and dates[].date.
//
// InvenioRDM validates these with python-edtf restricted to the Date and Interval types (no
// times, no level 1/2 features such as `?`, `~`, `X` or open interval ends) and requires an
// interval to be chronological. We only need that subset, so a small exact parser beats a
// dependency on a full EDTF library.

export const EDTF_ERROR = "Please provide a valid date or interval.";

/** A parsed level 0 value: the earliest and latest calendar day it covers, as `YYYY-MM-DD`. */
export interface EdtfSpan {
  lower: string;
  upper: string;
}

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

function daysInMonth(year: number, month: number): number {
  // Proleptic Gregorian calendar, as python-edtf uses (year 0 is a leap year).
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD` naming a real calendar day/month/year; null otherwise. */
export function parseEdtfDate(value: string): EdtfSpan | null {
  const match = DATE.exec(value);
  if (!match) return null;
  const year = Number(match[1]);
  const y = pad(year, 4);
  if (match[2] === undefined) return { lower: `${y}-01-01`, upper: `${y}-12-31` };
  const month = Number(match[2]);
  if (month < 1 || month > 12) return null;
  const m = pad(month, 2);
  const last = daysInMonth(year, month);
  if (match[3] === undefined) return { lower: `${y}-${m}-01`, upper: `${y}-${m}-${pad(last, 2)}` };
  const day = Number(match[3]);
  if (day < 1 || day > last) return null;
  const d = `${y}-${m}-${pad(day, 2)}`;
  return { lower: d, upper: d };
}

/**
 * A level 0 date or `start/end` interval. An interval is chronological when the start's earliest
 * day is not after the end's latest day (python-edtf's lower_strict <= upper_strict), so
 * `2020/2020-03` and `2020-05/2020` are both accepted, `2021/2020` is not.
 */
export function parseEdtf(value: string): EdtfSpan | null {
  const parts = value.split("/");
  if (parts.length === 1) return parseEdtfDate(value);
  if (parts.length !== 2) return null;
  const start = parseEdtfDate(parts[0]!);
  const end = parseEdtfDate(parts[1]!);
  if (!start || !end || start.lower > end.upper) return null;
  return { lower: start.lower, upper: end.upper };
}

export const isEdtfDateOrInterval = (value: string): boolean => parseEdtf(value) !== null;
