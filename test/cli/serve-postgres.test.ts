// `cairn serve` on PostgreSQL as a process, against Debian's server started by the test: it serves
// from CAIRN_DATABASE_URL (no cairn.db made), says in one line when the database cannot be reached
// at start, answers 503 JSON while the database is away and serves again once it is back.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cairn, freePort, serve } from "../helpers/cli";
import { startPostgresCluster, type PostgresCluster } from "../helpers/postgres-cluster";

let root = "";
let cluster: PostgresCluster;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cairn-serve-pg-"));
  cluster = await startPostgresCluster();
});
afterAll(() => {
  cluster.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("cairn serve with CAIRN_DATABASE_URL", () => {
  test("serves from PostgreSQL; while the database is away, 503 JSON; once back, answers again", async () => {
    const data = join(root, "served");
    const port = freePort();
    const { proc, output } = await serve(["--data", data, "--http", "--port", String(port)], { CAIRN_DATABASE_URL: cluster.url });
    try {
      expect(output).toContain("Cairn serving");
      expect(existsSync(join(data, "cairn.db"))).toBe(false);
      const token = /token=(\S+)/.exec(readFileSync(join(data, "admin-credentials.txt"), "utf8"))![1]!;
      const auth = { authorization: `Bearer ${token}` };
      const created = await fetch(`http://127.0.0.1:${port}/api/records`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({
          metadata: {
            title: "On PostgreSQL",
            resource_type: { id: "dataset" },
            publication_date: "2026",
            creators: [{ person_or_org: { type: "personal", family_name: "Lovelace", given_name: "Ada" } }],
          },
          files: { enabled: false },
        }),
      });
      expect(created.status).toBe(201);
      const id = ((await created.json()) as { id: string }).id;

      cluster.halt();
      try {
        const away = await fetch(`http://127.0.0.1:${port}/api/records/${id}/draft`, { headers: auth });
        expect(away.status).toBe(503);
        expect(away.headers.get("retry-after")).toBe("5");
        expect(((await away.json()) as { status: number }).status).toBe(503);
      } finally {
        cluster.resume();
      }
      const back = await fetch(`http://127.0.0.1:${port}/api/records/${id}/draft`, { headers: auth });
      expect(back.status).toBe(200);
      expect(((await back.json()) as { metadata: { title: string } }).metadata.title).toBe("On PostgreSQL");
    } finally {
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    }
  });

  test("a database that cannot be reached at start: one line naming it (without its password), exit 1", () => {
    const port = freePort();
    const result = cairn(["serve", "--data", join(root, "unreachable"), "--http", "--port", String(freePort())], {
      CAIRN_DATABASE_URL: `postgres://cairn:s3cret@127.0.0.1:${port}/cairn`,
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toStartWith(`cairn: cannot reach the database postgres://cairn@127.0.0.1:${port}/cairn: `);
    expect(result.stderr).not.toContain("s3cret");
  });

  test("DATABASE_URL that is not a PostgreSQL address: a configuration error, exit 2", () => {
    const result = cairn(["serve", "--data", join(root, "bad-url"), "--http"], { DATABASE_URL: "mysql://x@y/z" });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe("cairn: DATABASE_URL must be a PostgreSQL address, postgres://user:password@host:5432/database (leave it empty for SQLite)");
  });
});
