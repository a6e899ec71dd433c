// A data directory whose path has spaces and non-ASCII characters (as on a desktop: "Application
// Support", a user name with accents): `cairn serve` starts there, takes an upload, serves it back.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestApp } from "../helpers/app";
import { freePort, serve } from "../helpers/cli";
import { dropDataDirDatabases, prepareDataDir } from "../helpers/data-dir";
import { md5, uploadFile } from "../helpers/files";
import { publishableDraft } from "../helpers/records";

let root = "";
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "cairn-path-"));
});
afterAll(async () => {
  await dropDataDirDatabases();
  rmSync(root, { recursive: true, force: true });
});

test("serves, stores and returns a file from a data directory named with spaces and non-ASCII characters", async () => {
  const data = await prepareDataDir(join(root, "Forschungsdaten Jörg – データ", "Application Support", "Cairn"));
  const port = freePort();
  const { proc, output } = await serve(["--data", data, "--http", "--port", String(port)]);
  try {
    expect(output).toContain(`data in ${data})`);
    const token = /^token=(.+)$/m.exec(readFileSync(join(data, "admin-credentials.txt"), "utf8"))![1]!;
    // The helpers' upload sequence, sent to the running server as the administrator.
    const call = async (method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...options.headers };
      if (options.body !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body: options.body !== undefined ? JSON.stringify(options.body) : options.rawBody });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, json: text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : undefined };
    };
    const app = { call } as unknown as TestApp;
    const draft = await call("POST", "/api/records", { body: publishableDraft({ files: { enabled: true } }) });
    expect(draft.status).toBe(201);
    const content = "station,température\nÅrhus,12.5\n".repeat(100);
    const entry = await uploadFile(app, draft.json.id, "mesures été.csv", content);
    expect(entry).toMatchObject({ key: "mesures été.csv", status: "completed", size: Buffer.byteLength(content), checksum: `md5:${md5(content)}` });
    const published = await call("POST", `/api/records/${draft.json.id}/draft/actions/publish`);
    expect(published.status).toBe(202);
    const download = await fetch(`http://127.0.0.1:${port}/api/records/${draft.json.id}/files/${encodeURIComponent("mesures été.csv")}/content`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(content);
    // The bytes are in the file store under that path.
    const objects = join(data, "files", "objects");
    expect(existsSync(objects)).toBe(true);
    expect(readdirSync(objects).length).toBe(1);
  } finally {
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
  }
});
