// The requests API tests' shared fixture: three communities and six requests between the parties
// of test/helpers/requests.ts, made a minute apart; and scenario rows whose `{name}` placeholders
// (request names, `{ocean}`, `{alice}`, `{base}`) are filled in when they run.
import { expect, test } from "bun:test";
import type { Actor } from "../../src/core/actor";
import { BASE_URL, type CallOptions } from "./app";
import { createRequestsTestApp, type Party, type RequestsTestApp } from "./requests";

export const MINUTE_MS = 60_000;

export interface Fixture {
  t: RequestsTestApp;
  base: string;
  ocean: string;
  river: string;
  hidden: string;
  /** Request name -> id. */
  ids: Record<string, string>;
  nameOf(id: string): string;
  fill(text: string): string;
}

export async function setUpRequests(overrides: Parameters<typeof createRequestsTestApp>[0] = {}): Promise<Fixture> {
  const t = await createRequestsTestApp(overrides);
  const ocean = await t.addCommunity("ocean");
  const river = await t.addCommunity("river", "public", { carol: "curator" });
  const hidden = await t.addCommunity("hidden", "restricted");
  const ids: Record<string, string> = {};
  const as = (who: Party): Actor => t.actorOf(who);
  const make = async (name: string, actor: Actor, input: Parameters<RequestsTestApp["requests"]["createRequest"]>[1]) => {
    ids[name] = (await t.requests.createRequest(actor, input)).id;
    t.clock.advance(MINUTE_MS);
  };
  const start = t.clock.now();
  await make("open", as("alice"), {
    type: "test-review",
    receiver: { kind: "community", id: ocean },
    topic: { kind: "record", id: "abcde-12345" },
    title: "Ocean temperature dataset",
    description: "Buoy measurements from 2025",
    submit: true,
  });
  await make("draft", as("alice"), { type: "test-review", receiver: { kind: "community", id: "ocean" }, title: "Salinity draft" });
  await make("plain", as("alice"), { type: "test-plain", receiver: { kind: "user", id: String(t.userIds.bob) }, title: "Access to raw files", submit: true });
  await make("invite", as("manager"), {
    type: "test-invite",
    createdBy: { kind: "community", id: ocean },
    receiver: { kind: "user", id: String(t.userIds.carol) },
    topic: { kind: "community", id: ocean },
    title: "Join the ocean community",
    submit: true,
  });
  await make("river", as("bob"), { type: "test-review", receiver: { kind: "community", id: river }, title: "River gauge records", submit: true });
  await make("declined", as("alice"), { type: "test-review", receiver: { kind: "community", id: ocean }, title: "Old ocean request", submit: true });
  await t.requests.runAction(as("curator"), ids.declined!, "decline");
  // Later tests start from a known instant.
  t.clock.set(start + 60 * MINUTE_MS);
  const values: Record<string, string> = { ...ids, ocean, river, hidden, base: BASE_URL };
  for (const [who, id] of Object.entries(t.userIds)) values[who] = String(id);
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
  return { t, base: BASE_URL, ocean, river, hidden, ids, nameOf: (id) => Object.keys(ids).find((n) => ids[n] === id) ?? id, fill };
}

export interface Row extends Omit<CallOptions, "as"> {
  name: string;
  as?: Party;
  method: string;
  /** With `{name}` placeholders. */
  url: string;
  status: number;
  /** Contained in the body (deep partial match); strings with placeholders are filled. */
  json?: unknown;
  responseHeaders?: Record<string, string | RegExp>;
  check?: (body: any, text: string) => void;
}

const deepFill = (value: unknown, fill: (s: string) => string): unknown =>
  typeof value === "string"
    ? fill(value)
    : Array.isArray(value)
      ? value.map((v) => deepFill(v, fill))
      : value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepFill(v, fill)]))
        : value;

/** Scenario tables over the fixture: one test per row, as test/helpers/scenarios.ts does for the built-in users. */
export const requestScenarios = (fixture: () => Fixture) => (rows: Row[]) => {
  for (const row of rows) {
    test(`${row.name}: ${row.as ?? "anonymous"} ${row.method} ${row.url} -> ${row.status}`, async () => {
      const f = fixture();
      const body = row.body === undefined ? undefined : deepFill(row.body, f.fill);
      const res = await f.t.callAs(row.as ?? "anonymous", row.method, f.fill(row.url), { token: row.token, rawBody: row.rawBody, headers: row.headers, body });
      expect({ status: res.status, body: res.json ?? res.text }).toMatchObject({ status: row.status });
      if (row.json !== undefined) expect(res.json).toMatchObject(deepFill(row.json, f.fill) as object);
      for (const [name, value] of Object.entries(row.responseHeaders ?? {})) {
        if (value instanceof RegExp) expect(res.headers.get(name) ?? "").toMatch(value);
        else expect(res.headers.get(name)).toBe(value);
      }
      row.check?.(res.json, res.text);
    });
  }
};
