// The login page in every state it has (passwords open, sign-up open, administrators only, a
// directory's form, notices after a flow, a failed sign-in) speaks in words: no markdown syntax
// (backticks, emphasis, links) reaches a person.
import { afterAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";

const BROWSER = "text/html,application/xhtml+xml";
const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

/** The page's main text (tags dropped, entities of quotes decoded). */
const mainText = (html: string) =>
  (/<main[\s\S]*<\/main>/.exec(html)?.[0] ?? "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ")
    .trim();

const MARKDOWN = /`|\*\*|\]\(|^#|\s_[^_]+_\s/;

async function appWith(config: Record<string, unknown>): Promise<TestApp> {
  const app = await createTestApp(config);
  apps.push(app);
  return app;
}

async function page(app: TestApp, path: string): Promise<string> {
  const res = await app.call("GET", path, { headers: { accept: BROWSER } });
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return mainText(res.text);
}

describe("the login page's text", () => {
  test.each([
    ["passwords open", {}, "/login", "Sign in E-mail address or username Password Sign in Forgot your password? Accounts are made by the repository's administrators."],
    ["sign-up open", { ACCOUNTS_REGISTERABLE: true }, "/login", "Sign in E-mail address or username Password Sign in Forgot your password? No account yet? Sign up"],
    ["no sign-in source", { ACCOUNTS_LOCAL_LOGIN_ENABLED: false }, "/login", "Sign in No sign-in provider is configured: ask the repository's administrators."],
    [
      "administrators only",
      { ACCOUNTS_LOCAL_LOGIN_ENABLED: false },
      "/login?local=1",
      "Sign in Password sign-in is for the repository's administrators only. E-mail address or username Password Sign in",
    ],
    [
      "a directory's form",
      { ACCOUNTS_LOCAL_LOGIN_ENABLED: false, LDAP_URL: "ldap://127.0.0.1:1", LDAP_SEARCH_BASE: "dc=example" },
      "/login",
      "Sign in Sign in with the username and password of your directory account. E-mail address or username Password Sign in",
    ],
    ["a notice after confirming", {}, "/login?done=confirmed", "Sign in Your e-mail address is confirmed: you can sign in now. E-mail address or username Password Sign in"],
  ])("%s: plain words", async (_, config, path, expected) => {
    const text = await page(await appWith(config), path);
    expect(text.startsWith(expected)).toBe(true);
    expect(text).not.toMatch(MARKDOWN);
  });

  test("a failed sign-in: the refusal in words", async () => {
    const app = await appWith({});
    const shown = await app.call("GET", "/login", { headers: { accept: BROWSER } });
    const csrf = /name="csrf" value="([^"]+)"/.exec(shown.text)![1]!;
    const cookie = shown.headers.get("set-cookie")!.split(";")[0]!;
    const res = await app.call("POST", "/login", {
      headers: { accept: BROWSER, cookie, "content-type": "application/x-www-form-urlencoded" },
      rawBody: new URLSearchParams({ csrf, next: "/", login: "alice", password: "not her password" }).toString(),
    });
    expect(res.status).toBe(400);
    const text = mainText(res.text);
    expect(text).toContain("The e-mail address (or username) and password do not match an active account.");
    expect(text).not.toMatch(MARKDOWN);
  });
});
