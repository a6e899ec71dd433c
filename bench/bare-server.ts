// The read path's limit: a bare Bun.serve that answers GET /api/records/{id} with the record's
// stored JSON, read by id from Cairn's own SQLite file — no framework, no auth, no presentation.
// Run as its own process by run.ts: bun bench/bare-server.ts --data DIR --port N
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { data: { type: "string" }, port: { type: "string" } } });
if (!values.data || !values.port) throw new Error("usage: bare-server.ts --data DIR --port N");

const db = new Database(join(values.data, "cairn.db"), { readonly: true });
db.exec("PRAGMA busy_timeout = 5000"); // same as Cairn's connection; WAL is a property of the file
const read = db.query<{ document: string }, [string]>("SELECT document FROM records WHERE id = ?");
const PREFIX = "/api/records/";

Bun.serve({
  hostname: "127.0.0.1",
  port: Number(values.port),
  fetch(request) {
    const url = request.url;
    const at = url.indexOf(PREFIX);
    if (at < 0) return new Response("OK");
    const row = read.get(url.slice(at + PREFIX.length));
    if (!row) return new Response('{"status":404,"message":"not found"}', { status: 404, headers: { "Content-Type": "application/json" } });
    return new Response(row.document, { headers: { "Content-Type": "application/json" } });
  },
});
