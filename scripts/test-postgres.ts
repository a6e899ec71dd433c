// The test suite on PostgreSQL: every test file, each app on a fresh database of a throw-away
// server (scripts/with-postgres.ts, test/helpers/postgres.ts), but those test/postgres-pending.txt
// lists, each with its reason. Folders narrow the run (less their pending files), a file named runs
// as asked, other arguments go to `bun test` (-t …).
//   bun scripts/test-postgres.ts                 (the whole suite)
//   bun scripts/test-postgres.ts test/api test/unit
//   bun scripts/test-postgres.ts test/api/records.test.ts
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Glob } from "bun";

const root = join(import.meta.dir, "..");
const pending = new Map(
  readFileSync(join(root, "test", "postgres-pending.txt"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const [file, ...why] = line.split(/\s+--\s+/);
      return [file!.trim(), why.join(" -- ")] as const;
    }),
);
const args = process.argv.slice(2);
const named = args.filter((a) => a.startsWith("test/"));
// Folders (or the whole of test/) are expanded, less the pending files; a file named is run as asked.
const folders = named.filter((a) => !/\.test\.tsx?$/.test(a));
const listed = (folder: string) => [...new Glob(`${folder.replace(/\/$/, "")}/**/*.test.{ts,tsx}`).scanSync({ cwd: root })].map((f) => relative(root, join(root, f)));
const expanded = (named.length ? folders : ["test"]).flatMap(listed);
const files = [...named.filter((a) => !folders.includes(a)), ...expanded.filter((f) => !pending.has(f)).sort()];
for (const file of expanded) if (pending.has(file)) console.error(`skipped on PostgreSQL: ${file} (${pending.get(file)})`);
const bun = process.execPath;
const child = Bun.spawn([bun, "scripts/with-postgres.ts", bun, "test", "--timeout", "30000", ...args.filter((a) => !a.startsWith("test/")), ...files], {
  cwd: root,
  stdio: ["inherit", "inherit", "inherit"],
});
process.exit(await child.exited);
