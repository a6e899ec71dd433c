// `cairn files verify`: re-hashes every stored file now and lists those whose bytes no longer match.
import { parse, UsageError, type Command } from "./args";
import { withServices } from "./services";

export const filesCommand: Command = {
  name: "files",
  summary: "Check stored files: cairn files verify.",
  usage: `cairn files verify
    Re-hashes every stored file and compares it with the MD5 recorded when it arrived. Prints each
    file whose bytes are missing or changed, with the records that use it; exits 1 if any is.
    (The hourly files-verify job does the same a batch at a time.)`,
  async run(argv) {
    const [action, ...rest] = argv;
    if (action !== "verify") throw new UsageError(`files: unknown action '${action ?? ""}' (try cairn files verify)`);
    const { values } = parse(rest, {});
    const report = await withServices(values, (s) => s.files.verifyFiles({ olderThanDays: 0, limit: Number.MAX_SAFE_INTEGER }));
    for (const bad of report.failures) {
      const users = bad.entries.map((e) => `${e.recordId}${e.isDraft ? " (draft)" : ""}: ${e.key}`).join(", ");
      console.log(`DAMAGED ${bad.id}: ${bad.error} — used by ${users || "no entry"}`);
    }
    console.log(`checked ${report.checked} stored files: ${report.failures.length ? `${report.failures.length} damaged` : "all intact"}`);
    return report.failures.length ? 1 : 0;
  },
};
