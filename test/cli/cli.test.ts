// The cairn CLI: accounts, tokens, groups and jobs commands, with their errors and exit codes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cairn } from "../helpers/cli";
import { dropDataDirDatabases, prepareDataDir, readRows } from "../helpers/data-dir";

let data = "";
// --data goes right after the command words, so a flag left without its value stays last.
const withData = (...args: string[]) => [...args.slice(0, 2), "--data", data, ...args.slice(2)];
const count = async (table: string) => (await readRows<{ n: number }>(data, `SELECT count(*) AS n FROM ${table}`))[0]!.n;
const counts = async () => ({ users: await count("users"), tokens: await count("tokens"), groups: await count("groups"), jobs: await count("jobs") });

beforeAll(async () => {
  data = await prepareDataDir(mkdtempSync(join(tmpdir(), "cairn-cli-")));
});
afterAll(async () => {
  await dropDataDirDatabases();
  rmSync(data, { recursive: true, force: true });
});

describe("help and version", () => {
  test("--version prints the package version", async () => {
    const pkg = await Bun.file(join(import.meta.dir, "..", "..", "package.json")).json();
    // From the source tree the commit is "(source)"; a build names its commit (scripts/smoke-executable.ts checks that).
    expect(cairn(["--version"])).toMatchObject({ code: 0, stdout: `${pkg.version} (source)\n` });
  });
  test("--help lists the commands and configuration keys", () => {
    const res = cairn(["--help"]);
    expect(res.code).toBe(0);
    for (const word of [
      "serve",
      "users",
      "audit",
      "tokens",
      "groups",
      "jobs",
      "records",
      "communities",
      "oai-sets",
      "MAX_CONTENT_LENGTH",
      "RECORDS_RESOURCES_FILES_ALLOWED_DOMAINS",
    ])
      expect(res.stdout).toContain(word);
  });
  test.each(["serve", "users", "audit", "tokens", "groups", "jobs", "records", "communities", "oai-sets"])("%s --help prints its usage", (name) => {
    const res = cairn([name, "--help"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`cairn ${name}`);
  });
});

describe("users, tokens and groups", () => {
  test("users create prints the id; users list shows the account", () => {
    const res = cairn(withData("users", "create", "--email", "ada@example.org", "--username", "ada", "--password", "long-enough", "--admin"));
    expect(res).toMatchObject({ code: 0, stdout: "1\n" });
    const list = cairn(withData("users", "list"));
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^1\s+ada@example\.org\s+ada\s+yes\s+yes/m);
  });

  test("tokens create prints only a token that authenticates", () => {
    const res = cairn(withData("tokens", "create", "--email", "ada@example.org", "--name", "laptop", "--scope", "user:email"));
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    const list = cairn(withData("tokens", "list", "--email", "ada@example.org"));
    expect(list.stdout).toMatch(/^1\s+laptop\s+user:email\s+\S+\s+-\s+-$/m);
    expect(list.stdout).not.toContain(res.stdout.trim());
  });

  test("tokens revoke marks the token revoked", () => {
    expect(cairn(withData("tokens", "revoke", "1"))).toMatchObject({ code: 0, stdout: "revoked token 1\n" });
    expect(cairn(withData("tokens", "list", "--email", "ada@example.org")).stdout).toMatch(/^1\s+laptop\s+user:email\s+\S+\s+-\s+\d{4}-/m);
  });

  test("groups create and add-member", async () => {
    const created = cairn(withData("groups", "create", "lab-members", "--description", "The lab"));
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(cairn(withData("groups", "add-member", "lab-members", "--email", "ada@example.org")).stdout).toBe("added ada@example.org to lab-members\n");
    expect(cairn(withData("groups", "add-member", "lab-members", "--email", "ada@example.org")).stdout).toBe("ada@example.org is already in lab-members\n");
    expect(await count("group_members")).toBe(1);
  });
});

describe("wrong arguments: one line, exit 2, nothing written", () => {
  const cases: [string, string[], string][] = [
    ["unknown command", ["frobnicate"], "cairn: unknown command 'frobnicate' (try cairn --help)\n"],
    [
      "unknown subcommand",
      ["users", "erase"],
      "cairn: unknown users command 'erase' (create, list, set-password, block, restore, approve, activate, deactivate, promote, demote, quota, delete, reset-password)\n",
    ],
    ["missing --email", ["users", "create"], "cairn: --email is required\n"],
    ["unknown flag", ["users", "create", "--email", "x@example.org", "--colour"], "cairn: Unknown option '--colour'\n"],
    ["flag without value", ["users", "create", "--email"], "cairn: Option '--email <value>' argument missing\n"],
    ["bad e-mail", ["users", "create", "--email", "not-an-address"], "cairn: email: Not a valid e-mail address.\n"],
    ["duplicate e-mail", ["users", "create", "--email", "ADA@example.org"], "cairn: email: This e-mail address is already registered.\n"],
    [
      "bad username",
      ["users", "create", "--email", "b@example.org", "--username", "1x"],
      "cairn: username: A username starts with a letter and has 3 or more letters, digits, '-' or '_'.\n",
    ],
    ["short password", ["users", "create", "--email", "b@example.org", "--password", "short"], "cairn: password: A password has at least 8 characters.\n"],
    ["token for nobody", ["tokens", "create", "--email", "nobody@example.org"], "cairn: no user with e-mail nobody@example.org\n"],
    ["unknown scope", ["tokens", "create", "--email", "ada@example.org", "--scope", "deposit:write"], "cairn: scopes: Unknown scope(s): deposit:write. Known: user:email.\n"],
    ["revoke without id", ["tokens", "revoke"], "cairn: tokens revoke needs the token id (a number; see tokens list)\n"],
    ["revoke unknown id", ["tokens", "revoke", "999"], "cairn: No token with id 999.\n"],
    ["extra argument", ["users", "list", "extra"], "cairn: unexpected argument 'extra'\n"],
    ["duplicate group", ["groups", "create", "LAB-members"], "cairn: name: A group named 'LAB-members' exists already.\n"],
    ["member of unknown group", ["groups", "add-member", "nolab", "--email", "ada@example.org"], "cairn: No group named 'nolab'.\n"],
    [
      "unknown job",
      ["jobs", "run", "nope"],
      "cairn: no job named 'nope' (known: jobs-prune, db-optimize, vocabulary-import, stats-aggregate, stats-prune-events, files-fetch, files-verify, backup, backup-verify, embargo-lift, records-reindex, mail-send, requests-expire, access-verifications-clean, sessions-clean, account-links-cleanup)\n",
    ],
    ["bad limit", ["jobs", "list", "--limit", "0"], "cairn: --limit must be a whole number of 1 or more\n"],
  ];
  test.each(cases)("%s", async (_name, args, stderr) => {
    const before = await counts();
    const res = cairn(args.length ? withData(...args) : []);
    expect(res.code).toBe(2);
    if (stderr) expect(res.stderr).toBe(stderr);
    expect(res.stderr.trim().split("\n").length).toBeLessThanOrEqual(stderr ? 1 : 100);
    expect(await counts()).toEqual(before);
  });

  test("a bad configuration value is named", () => {
    const res = cairn(withData("users", "list"), { CAIRN_PORT: "eighty" });
    expect(res).toMatchObject({ code: 2, stderr: 'cairn: PORT from CAIRN_PORT: expected a whole number, got "eighty"\n' });
  });

  test("a bad config file is named", () => {
    const file = join(data, "broken.toml");
    writeFileSync(file, "MAX_CONTENT_LENGTH = [");
    const res = cairn(withData("users", "list", "--config", file));
    expect(res.code).toBe(2);
    expect(res.stderr).toStartWith(`cairn: config file ${file} is not valid TOML`);
  });
});

describe("jobs", () => {
  test("jobs run executes a scheduled job now and records it", () => {
    const res = cairn(withData("jobs", "run", "jobs-prune"));
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ job: 1, name: "jobs-prune", status: "succeeded", result: { deleted: 0 } });
    const list = cairn(withData("jobs", "list"));
    expect(list.stdout).toMatch(/^jobs-prune\s+daily at 03:10 UTC/m);
    expect(list.stdout).toMatch(/^1\s+jobs-prune\s+succeeded\s+1\/1/m);
  });

  test("a job's progress: in the JSON of jobs run and the progress column of jobs list", () => {
    // Beside the data directory, never inside it.
    const env = { CAIRN_BACKUP_DIR: `${data}-backups` };
    const res = cairn(withData("jobs", "run", "backup"), env);
    rmSync(env.CAIRN_BACKUP_DIR, { recursive: true, force: true });
    expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    const job = JSON.parse(res.stdout);
    expect({ name: job.name, status: job.status, progress: job.progress }).toEqual({
      name: "backup",
      status: "succeeded",
      progress: { done: 0, total: 0, message: "files backed up" },
    });
    const list = cairn(withData("jobs", "list"), env);
    expect(list.stdout).toMatch(/^id\s+name\s+status\s+attempts\s+run_at\s+finished\s+progress\s+error$/m);
    expect(list.stdout).toMatch(new RegExp(`^${job.job}\\s+backup\\s+succeeded\\s+1/1\\s+\\S+\\s+\\S+\\s+0 of 0: files backed up\\s+-$`, "m"));
  });
});
