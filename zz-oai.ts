import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { startPostgresCluster } from "./test/helpers/postgres-cluster";
import { EXECUTABLE, launch } from "./bench/executable";
import { prepareRecords } from "./bench/read-phases";

const N = Number(process.argv[2] ?? 20000);
const root = mkdtempSync(join(tmpdir(), "zz-oai-"));
const cluster = await startPostgresCluster();
const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
await admin.unsafe("CREATE DATABASE prof");
const url = cluster.urlOf("prof");
const sqliteData = join(root, "s");
await prepareRecords(sqliteData, N);
const copy = Bun.spawnSync([EXECUTABLE, "db", "copy", "--data", sqliteData, "--to", url], { stdout: "ignore", stderr: "pipe" });
if (copy.exitCode) throw new Error(copy.stderr.toString());
const pgData = join(root, "p");
mkdirSync(pgData);
writeFileSync(join(pgData, "cairn.toml"), `DATABASE_URL = ${JSON.stringify(url)}\n`);
copyFileSync(join(sqliteData, "admin-credentials.txt"), join(pgData, "admin-credentials.txt"));
await admin.unsafe("ALTER DATABASE prof SET log_min_duration_statement = 100");
const server = await launch(pgData);
let u = `${server.base}/oai2d?verb=ListRecords&metadataPrefix=oai_dc`;
for (let i = 0; i < 20; i++) {
  const t = performance.now();
  const text = await (await fetch(u)).text();
  console.log(i, (performance.now() - t).toFixed(1));
  const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(text)?.[1];
  if (!token) break;
  u = `${server.base}/oai2d?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
}
await server.stop();
const dd = (await admin.unsafe("SHOW data_directory"))[0].data_directory as string;
Bun.spawnSync(["cp", join(dd, "..", "log"), "/tmp/zz-oai.log"]);
await admin.end();
cluster.stop();
