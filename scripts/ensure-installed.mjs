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

// The browser tests drive Debian's Chromium (test/helpers/browser.ts): before `npm test`, install
// it from Debian when it is missing and this machine can (root with apt-get); say so otherwise.
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (process.env.npm_lifecycle_event === "pretest" && !existsSync(chromium)) {
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  let hasApt = false;
  try {
    execSync("command -v apt-get", { stdio: "ignore", shell: "/bin/sh" });
    hasApt = true;
  } catch {
    hasApt = false;
  }
  if (root && hasApt) {
    console.error("Installing Chromium from Debian for the browser tests (apt-get install chromium)...");
    execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", { stdio: "inherit", shell: "/bin/sh" });
  } else {
    console.error(`The browser tests need Chromium at ${chromium}: install Debian's 'chromium' package (or set CHROMIUM_PATH).`);
  }
}
