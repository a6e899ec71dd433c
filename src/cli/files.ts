// `cairn files verify`: re-hashes every stored file now and lists those whose bytes no longer match.
// `cairn files migrate --to s3`: moves the local store's objects into the S3 bucket, without stopping reads.
import { ConfigError } from "../config";
import { parse, UsageError, type Command } from "./args";
import { progressBar } from "./progress";
import { withServices } from "./services";

async function verify(rest: string[]) {
  const { values } = parse(rest, {});
  const report = await withServices(values, (s) => s.files.verifyFiles({ olderThanDays: 0, limit: Number.MAX_SAFE_INTEGER }));
  for (const bad of report.failures) {
    const users = bad.entries.map((e) => `${e.recordId}${e.isDraft ? " (draft)" : ""}: ${e.key}`).join(", ");
    console.log(`DAMAGED ${bad.id}: ${bad.error} — used by ${users || "no entry"}`);
  }
  console.log(`checked ${report.checked} stored files: ${report.failures.length ? `${report.failures.length} damaged` : "all intact"}`);
  return report.failures.length ? 1 : 0;
}

async function migrate(rest: string[]) {
  const { values } = parse(rest, { to: { type: "string" }, "keep-local": { type: "boolean" } });
  if (values.to !== "s3") throw new UsageError("files migrate: say where to: cairn files migrate --to s3");
  return withServices(values, async (s) => {
    const { config } = s.deps;
    if (!config.S3_BUCKET) throw new ConfigError("files migrate --to s3 needs the bucket's settings: S3_BUCKET, S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY");
    // A server still on the local store reads these copies: they stay until it runs on S3.
    const removeLocal = config.FILES_STORAGE === "s3" && values["keep-local"] !== true;
    const bar = progressBar("migrate");
    const report = await s.files.migrateToS3({ removeLocal, onProgress: (done, total) => bar.update(done, total) });
    bar.done();
    for (const bad of report.failures) console.log(`FAILED ${bad.id}: ${bad.error}`);
    const moved = report.objects - report.failures.length;
    console.log(
      `${report.objects} local objects: ${report.copied} copied to ${report.target}, ${report.present} already there; ${moved} read back and their MD5 checked; ` +
        (removeLocal
          ? `${report.removedLocal} local copies removed`
          : config.FILES_STORAGE === "s3"
            ? "local copies kept (--keep-local)"
            : 'local copies kept: set FILES_STORAGE = "s3", restart the server, and run this again to remove them'),
    );
    return report.failures.length ? 1 : 0;
  });
}

export const filesCommand: Command = {
  name: "files",
  summary: "Check stored files and move them to object storage: cairn files verify | migrate --to s3.",
  usage: `cairn files verify
    Re-hashes every stored file (from the local disk or the S3 bucket) and compares it with the MD5
    recorded when it arrived. Prints each file whose bytes are missing or changed, with the records
    that use it; exits 1 if any is. (The hourly files-verify job does the same a batch at a time.)
cairn files migrate --to s3 [--keep-local]
    Copies every object of DATA/files/objects to the S3 bucket (S3_* settings), reads each copy back
    and checks its MD5. With FILES_STORAGE = "s3" each local copy is then removed (the server reads
    an object from the local disk until then); with "local" they are kept. Safe to stop and run
    again: objects already in the bucket are checked, not copied again. Exits 1 if one failed.`,
  async run(argv) {
    const [action, ...rest] = argv;
    if (action === "verify") return verify(rest);
    if (action === "migrate") return migrate(rest);
    throw new UsageError(`files: unknown action '${action ?? ""}' (try cairn files verify, or cairn files migrate --to s3)`);
  },
};
