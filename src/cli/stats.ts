// `cairn stats export`: the COUNTER-style Dataset Report (DSR) of a date range, as JSON.
import { writeFileSync } from "node:fs";
import { systemActor } from "../core/actor";
import { parseDay } from "../stats/validate";
import { parse, requireString, UsageError, type Command } from "./args";
import { withServices } from "./services";

function day(values: Record<string, unknown>, name: string): string {
  const value = requireString(values, name);
  const parsed = parseDay(value);
  if (!parsed || parsed !== value.trim()) throw new UsageError(`--${name} must be a date YYYY-MM-DD, got '${value}'`);
  return parsed;
}

export const statsCommand: Command = {
  name: "stats",
  summary: "Export usage statistics as a COUNTER-style Dataset Report (JSON).",
  usage: `cairn stats export --from YYYY-MM-DD --to YYYY-MM-DD [--output FILE]
    Writes the COUNTER Code of Practice for Research Data Dataset Report (DSR, SUSHI JSON) of
    every record used in the period (both days included): investigations and requests, total
    and unique, by month and access method (regular, machine). Events not yet aggregated are
    aggregated first. Without --output the report goes to standard output.`,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub !== "export") throw new UsageError(sub ? `unknown stats command '${sub}' (export)` : "stats needs a command: export");
    const { values } = parse(rest, { from: { type: "string" }, to: { type: "string" }, output: { type: "string" } });
    const from = day(values, "from");
    const to = day(values, "to");
    if (from > to) throw new UsageError("--from must not be after --to");
    const report = await withServices(values, async (s) => {
      await s.stats.aggregate();
      return s.stats.exportReport(systemActor, from, to);
    });
    const text = `${JSON.stringify(report, null, 2)}\n`;
    if (typeof values.output === "string") {
      writeFileSync(values.output, text);
      console.error(`wrote ${report["report-datasets"].length} dataset(s) to ${values.output}`);
    } else process.stdout.write(text);
    return 0;
  },
};
