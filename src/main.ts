#!/usr/bin/env bun
// The `cairn` command: dispatches to serve, users, audit, tokens, groups, jobs, mail and the others below.
import { auditCommand } from "./cli/audit";
import { backupCommand, restoreCommand } from "./cli/backup";
import { communitiesCommand } from "./cli/communities";
import { dbCommand } from "./cli/db";
import { startCommand } from "./cli/desktop";
import { filesCommand } from "./cli/files";
import { groupsCommand } from "./cli/groups";
import { jobsCommand } from "./cli/jobs";
import { mailCommand } from "./cli/mail";
import { oaiSetsCommand } from "./cli/oai-sets";
import { recordsCommand } from "./cli/records";
import { reindexCommand } from "./cli/reindex";
import { serveCommand } from "./cli/serve";
import { statsCommand } from "./cli/stats";
import { tokensCommand } from "./cli/tokens";
import { usersCommand } from "./cli/users";
import { vocabulariesCommand } from "./cli/vocabularies";
import { UsageError, type Command } from "./cli/args";
import { ConfigError, describeConfig } from "./config";
import { DatabaseUnreachable } from "./db/port";
import { httpErrorOf } from "./core/errors";
import { VERSION, VERSION_LINE } from "./version";

const COMMANDS: Command[] = [
  startCommand,
  serveCommand,
  usersCommand,
  auditCommand,
  tokensCommand,
  groupsCommand,
  jobsCommand,
  mailCommand,
  vocabulariesCommand,
  reindexCommand,
  statsCommand,
  filesCommand,
  recordsCommand,
  communitiesCommand,
  oaiSetsCommand,
  backupCommand,
  restoreCommand,
  dbCommand,
];

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `cairn ${VERSION}: a research-data repository in one executable.`,
    "",
    "Usage: cairn <command> [options]   (every command takes --data DIR, --config FILE and --help)",
    "       cairn                        (no command: start for this computer and open the browser; see cairn start --help)",
    "",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Configuration keys (cairn.toml in the data directory, or environment CAIRN_<KEY>):",
    ...describeConfig().map((k) => `  ${k.key} (${k.kind}, default ${k.default || '""'})`),
  ].join("\n");
}

/** Turns an error into a one-line message and an exit status: 2 for anything the caller got wrong. */
function report(err: unknown): number {
  if (err instanceof UsageError || err instanceof ConfigError) {
    console.error(`cairn: ${err.message}`);
    return 2;
  }
  // The database away at start: the server cannot run, and no stack helps the one who starts it.
  if (err instanceof DatabaseUnreachable) {
    console.error(`cairn: ${err.message}`);
    return 1;
  }
  const refusal = httpErrorOf(err);
  if (refusal && refusal.status < 500) {
    const details = refusal.errors?.map((e) => `${e.field}: ${e.messages.join(" ")}`).join("; ");
    console.error(`cairn: ${details || refusal.message}`);
    return 2;
  }
  console.error(`cairn: ${(err as Error)?.stack ?? err}`);
  return 1;
}

export async function main(argv: string[]): Promise<number> {
  // No command (a double-click), or only the desktop start's own flags: the desktop start.
  if (argv.length === 0 || (argv[0]!.startsWith("-") && !["--version", "-v", "--help", "-h"].includes(argv[0]!))) argv = [startCommand.name, ...argv];
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-v") {
    console.log(VERSION_LINE);
    return 0;
  }
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(help());
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    console.error(`cairn: unknown command '${name}' (try cairn --help)`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(command.usage);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    return report(err);
  }
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
