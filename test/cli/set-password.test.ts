// `cairn users set-password` on a test app's data directory: the new password signs in, the old
// one no longer does, the account's sessions end and its lock lifts; short passwords, unknown
// accounts and the password read from standard input.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { HttpError } from "../../src/core/errors";
import { createTestApp, type TestApp } from "../helpers/app";
import { cairn, cleanEnv, MAIN, type CliResult } from "../helpers/cli";

let ctx: TestApp;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const setPassword = (...args: string[]) => cairn(["users", "set-password", "--data", ctx.dataDir, ...args], {}, { clock: ctx.clock });

/** The same command with `input` on its standard input (the helper's child gets none). */
function setPasswordFromStdin(input: string, ...args: string[]): CliResult {
  const preload = ["--preload", join(import.meta.dir, "..", "helpers", "fake-now.ts")];
  const proc = Bun.spawnSync([process.execPath, ...preload, MAIN, "users", "set-password", "--data", ctx.dataDir, ...args], {
    env: { ...cleanEnv(), FAKE_NOW_MS: String(ctx.clock.now()) },
    stdin: new TextEncoder().encode(input),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: proc.exitCode ?? -1, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

/** The status a sign-in attempt ends with: 200 for a session, the refusal's status otherwise. */
const signInStatus = (login: string, password: string) =>
  ctx.services.sessions.signIn(login, password).then(
    () => 200,
    (e: unknown) => (e instanceof HttpError ? e.status : Promise.reject(e)),
  );

describe("cairn users set-password", () => {
  test("--password: the new one signs in, the old one not, and the account's sessions end (others' stay)", async () => {
    const alice = await ctx.services.sessions.signIn("alice", "alice-password");
    const bob = await ctx.services.sessions.signIn("bob", "bob-password");
    const res = setPassword("--login", "alice", "--password", "new-password-1");
    expect(res).toMatchObject({ code: 0, stdout: `password set for alice@example.org (id ${alice.userId})\n` });
    expect(await signInStatus("alice", "new-password-1")).toBe(200);
    expect(await signInStatus("alice@example.org", "alice-password")).toBe(400);
    expect(await ctx.services.sessions.resolve(alice.secret)).toBeNull();
    expect((await ctx.services.sessions.resolve(bob.secret))?.actor.userId).toBe(bob.userId);
  });

  test("the password from standard input when --password is absent (its first line)", async () => {
    const res = setPasswordFromStdin("piped-password-2\nignored\n", "--login", "bob@example.org");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("password set for bob@example.org");
    expect(await signInStatus("bob", "piped-password-2")).toBe(200);
    expect(await signInStatus("bob", "bob-password")).toBe(400);
  });

  test("a locked account is unlocked", async () => {
    for (let i = 0; i < 5; i++) expect(await signInStatus("admin", "wrong-password")).toBe(400);
    expect(await signInStatus("admin", "admin-password")).toBe(429);
    expect(setPassword("--login", "admin", "--password", "admin-password-3").code).toBe(0);
    expect(await signInStatus("admin", "admin-password-3")).toBe(200);
  });

  const refusals: [name: string, args: string[], fragment: string][] = [
    ["too short", ["--login", "alice", "--password", "short"], "A password has at least 8 characters."],
    ["an unknown account", ["--login", "nobody@example.org", "--password", "long-enough-4"], "No account 'nobody@example.org'."],
    ["no --login", ["--password", "long-enough-5"], "--login"],
  ];
  test.each(refusals)("%s: a non-zero exit with the message, and nothing changed", async (_name, args, fragment) => {
    const res = setPassword(...args);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain(fragment);
    expect(await signInStatus("alice", "new-password-1")).toBe(200);
  });

  test("too short from standard input: the same refusal", async () => {
    const res = setPasswordFromStdin("tiny\n", "--login", "alice");
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("A password has at least 8 characters.");
  });
});
