// Time: an injectable clock, and the spec's two timestamp formats.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand, so nothing waits for time to pass. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.UTC(2026, 0, 1)) {}
  now() {
    return this.ms;
  }
  set(at: number | string | Date) {
    this.ms = typeof at === "number" ? at : new Date(at).getTime();
  }
  advance(ms: number) {
    this.ms += ms;
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function parts(ms: number) {
  const d = new Date(ms);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return { date, time, micros: pad(d.getUTCMilliseconds() * 1000, 6) };
}

/** Drafts, records and files: `YYYY-MM-DD HH:MM:SS.ffffff` (UTC). */
export function formatRecordTime(ms: number): string {
  const p = parts(ms);
  return `${p.date} ${p.time}.${p.micros}`;
}

/** Communities, members, requests, vocabularies, groups: `YYYY-MM-DDTHH:MM:SS.ffffff+00:00`. */
export function formatIsoTime(ms: number): string {
  const p = parts(ms);
  return `${p.date}T${p.time}.${p.micros}+00:00`;
}

/** OAI-PMH sets: `YYYY-MM-DDTHH:MM:SS`; OAI datestamps add `Z`. */
export function formatSecondsTime(ms: number): string {
  const p = parts(ms);
  return `${p.date}T${p.time}`;
}

/** `YYYY-MM-DD` of the UTC day. */
export function formatDate(ms: number): string {
  return parts(ms).date;
}
