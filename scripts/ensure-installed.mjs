// Runs before `npm start` and `npm test` (plain Node, no Bun needed): installs the locked
// dependencies, Bun among them, when they are missing, so each Quick start command works alone.
import { execSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";

const bun = "node_modules/.bin/bun";
const lock = "package-lock.json";
const marker = "node_modules/.package-lock.json";
const stale = !existsSync(bun) || !existsSync(marker) || statSync(lock).mtimeMs > statSync(marker).mtimeMs;
if (stale) {
  console.error("Installing dependencies from package-lock.json (npm ci)...");
  execSync("npm ci --no-audit --no-fund", { stdio: "inherit" });
}
