// Runs a command (the test suite, a bench) against a throw-away PostgreSQL server: Debian's own,
// started in a temporary folder on a free port of 127.0.0.1 (test/helpers/postgres-cluster.ts), its
// superuser's URL in CAIRN_TEST_POSTGRES; stopped and removed when the command ends.
//   bun scripts/with-postgres.ts bun test --timeout 30000
import { startPostgresCluster } from "../test/helpers/postgres-cluster";

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error("usage: bun scripts/with-postgres.ts <command> [args…]");
  process.exit(2);
}
const cluster = await startPostgresCluster();
console.error(`PostgreSQL test server on port ${cluster.port}`);
const child = Bun.spawn(command, { stdio: ["inherit", "inherit", "inherit"], env: { ...process.env, CAIRN_TEST_POSTGRES: cluster.url } });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
const code = await child.exited;
cluster.stop();
process.exit(code);
