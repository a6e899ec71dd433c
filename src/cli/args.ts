// Command-line parsing shared by every command: strict flags, --data/--config/--help, one-line errors.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { loadConfig, type Config, type ConfigKey } from "../config";

/** Wrong arguments: printed as one line, exit status 2. */
export class UsageError extends Error {}

export type Options = NonNullable<ParseArgsConfig["options"]>;

export const COMMON_OPTIONS = {
  data: { type: "string" },
  config: { type: "string" },
  help: { type: "boolean", short: "h" },
} satisfies Options;

export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

/** Parses argv strictly; unknown flags and missing values become a UsageError. */
export function parse<O extends Options>(argv: string[], options: O, positionals = 0) {
  try {
    const result = parseArgs({ args: argv, options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
    if (result.positionals.length > positionals) {
      throw new UsageError(`unexpected argument '${result.positionals[positionals]}'`);
    }
    return result;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError((err as Error).message.split("\n")[0]!.replace(/\. To specify.*$/, ""));
  }
}

export function requireString(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== "string" || v.trim() === "") throw new UsageError(`--${name} is required`);
  return v;
}

/** The configuration for a command, with `--data`/`--config` and any flag-set keys applied. */
export function configFrom(values: Record<string, unknown>, flags: Partial<Record<ConfigKey, unknown>> = {}): Config {
  return loadConfig({
    flags: { ...flags, ...(typeof values.data === "string" ? { DATA_DIR: values.data } : {}) },
    configFile: typeof values.config === "string" ? values.config : undefined,
  });
}

/** Prints rows as aligned columns. */
export function printTable(rows: Record<string, unknown>[], columns: string[]) {
  const cell = (v: unknown) => (v === null || v === undefined ? "-" : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  console.log(line(columns));
  for (const r of rows) console.log(line(columns.map((c) => cell(r[c]))));
}

export const when = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString().replace(/\.\d+Z$/, "Z") : null);
