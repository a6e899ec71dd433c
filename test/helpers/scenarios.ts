// Scenario tables: each row is one HTTP call and what must come back.
import { expect, test } from "bun:test";
import type { CallOptions, TestApp } from "./app";

export interface Scenario extends CallOptions {
  name: string;
  method: string;
  url: string;
  status: number;
  /** Must be contained in the JSON body (deep partial match). */
  json?: unknown;
  /** Headers that must be present with these exact values. */
  responseHeaders?: Record<string, string | RegExp>;
  /** Further checks on the parsed body. */
  check?: (body: any, text: string) => void;
}

/** Defines one test per row against the app returned by `app()` (built in beforeAll). */
export function scenarios(app: () => TestApp, rows: Scenario[]) {
  for (const row of rows) {
    test(`${row.name}: ${row.as ?? "anonymous"} ${row.method} ${row.url} -> ${row.status}`, async () => {
      const res = await app().call(row.method, row.url, row);
      expect({ status: res.status, body: res.json ?? res.text }).toMatchObject({ status: row.status });
      if (row.json !== undefined) expect(res.json).toMatchObject(row.json as object);
      for (const [name, value] of Object.entries(row.responseHeaders ?? {})) {
        if (value instanceof RegExp) expect(res.headers.get(name) ?? "").toMatch(value);
        else expect(res.headers.get(name)).toBe(value);
      }
      row.check?.(res.json, res.text);
    });
  }
}

/** A scenario `check`: the body is exactly the standard 403 refusal. */
export const exactlyDenied = (body: any) => expect(body).toEqual({ status: 403, message: "Permission denied." });
