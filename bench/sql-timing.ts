// Statement-by-statement SQLite time for the per-phase benchmarks (read-cost.ts, write-cost.ts):
// bun:sqlite's query() and prepare() hand out statements whose get/all/run/values are timed while
// `on` is true, by SQL text. Install before the app opens its database.
import { Database } from "bun:sqlite";

export interface StatementTime {
  calls: number;
  ms: number;
}

export function timeStatements() {
  const bySql = new Map<string, StatementTime>();
  const state = { on: false };
  function timed<T extends object>(statement: T, sql: string): T {
    const s = statement as unknown as Record<string, (...a: unknown[]) => unknown> & { timed?: true };
    if (s.timed) return statement;
    for (const method of ["get", "all", "run", "values"]) {
      const plain = s[method]!.bind(s);
      s[method] = (...args: unknown[]) => {
        if (!state.on) return plain(...args);
        const t = performance.now();
        try {
          return plain(...args);
        } finally {
          const entry = bySql.get(sql) ?? { calls: 0, ms: 0 };
          entry.calls++;
          entry.ms += performance.now() - t;
          bySql.set(sql, entry);
        }
      };
    }
    s.timed = true;
    return statement;
  }
  for (const name of ["query", "prepare"] as const) {
    const plain = Database.prototype[name];
    Database.prototype[name] = function (this: Database, sql: string, ...rest: unknown[]) {
      return timed((plain as (...a: unknown[]) => object).call(this, sql, ...rest), sql);
    } as unknown as (typeof Database.prototype)[typeof name];
  }
  return {
    /** Times statements while true. */
    set on(value: boolean) {
      state.on = value;
    },
    /** Every statement timed so far, slowest first, per `perRun` runs of the measured work. */
    table(perRun: number, rows = 25) {
      return [...bySql]
        .sort((a, b) => b[1].ms - a[1].ms)
        .slice(0, rows)
        .map(([sql, s]) => ({ sql: sql.replace(/\s+/g, " ").slice(0, 100), callsPerRun: +(s.calls / perRun).toFixed(2), us: +((s.ms * 1000) / perRun).toFixed(1) }));
    },
    /** Total ms of every statement timed. */
    totalMs: () => [...bySql.values()].reduce((n, s) => n + s.ms, 0),
  };
}
