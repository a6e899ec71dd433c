// Pages in a real browser: the app served on a local port, Debian's Chromium driven through
// playwright-core (nothing downloads a browser), axe-core's accessibility check, and the
// html-validate check of a page's markup.
import { readFileSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Response } from "playwright-core";
import { HtmlValidate } from "html-validate";
import { createTestApp, type TestApp } from "./app";

/** Debian's package (`apt-get install chromium`); CHROMIUM_PATH overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export interface BrowserApp extends TestApp {
  /** `http://127.0.0.1:<port>`: the app's BASE_URL and where the browser goes. */
  base: string;
  browser: Browser;
  /** A fresh browser profile (its own cookies): one per person in a scenario. */
  newPerson(): Promise<BrowserContext>;
  stop(): Promise<void>;
}

/**
 * Starts the app on a free local port with BASE_URL pointing there, and a headless Chromium.
 * `overrides` may be made from the base (a provider started first needs Cairn's redirect URI).
 */
export async function startBrowserApp(overrides: Record<string, unknown> | ((base: string) => Promise<Record<string, unknown>>) = {}): Promise<BrowserApp> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port;
  await probe.stop(true);
  const base = `http://127.0.0.1:${port}`;
  const ctx = await createTestApp({ BASE_URL: base, ...(typeof overrides === "function" ? await overrides(base) : overrides) });
  const server = Bun.serve({ port, hostname: "127.0.0.1", fetch: (request) => ctx.app.handle(request), maxRequestBodySize: 1024 * 1024 * 1024 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  return {
    ...ctx,
    base,
    browser,
    newPerson: () => browser.newContext({ baseURL: base }),
    async stop() {
      await browser.close();
      await server.stop(true);
      await ctx.close();
    },
  };
}

/** Signs in through the login form; the page ends on `next` (default the front page). */
export async function signIn(page: Page, login: string, password: string, next = "/") {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("E-mail address or username").fill(login);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

/**
 * Clicks the control that sends a form and waits for the answer's page to load, each wait bounded:
 * what follows then queries the new document instead of racing its commit, and a form whose answer
 * never comes fails here saying which step it reached, instead of as the test's timeout (which
 * ends the browser for the tests after it too).
 */
export async function submitForm(page: Page, control: Locator, timeout = 15_000): Promise<Response> {
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && r.request().resourceType() === "document", { timeout });
  await control.click({ timeout });
  const response = await answered.catch((error: Error) => {
    throw new Error(`the form's answer did not come within ${timeout} ms (${page.url()}): ${error.message}`);
  });
  await page.waitForLoadState("load", { timeout }).catch((error: Error) => {
    throw new Error(`the answer (${response.status()} ${response.url()}) arrived but its page did not load within ${timeout} ms: ${error.message}`);
  });
  return response;
}

const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's violations of "serious" or "critical" impact on the page as it is now. The script is
 * evaluated through the DevTools protocol, so the page's Content-Security-Policy stays as served.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as { violations: AxeViolation[] };
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

const validator = new HtmlValidate({
  extends: ["html-validate:recommended"],
  rules: {
    // Preact writes void elements as `<br/>`; both forms are valid HTML.
    "void-style": "off",
    "no-trailing-whitespace": "off",
    // Checkboxes of one search facet share the facet's name, as HTML allows (each ticked value is sent).
    "form-dup-name": ["error", { shared: ["radio", "button", "reset", "submit", "checkbox"] }],
  },
});

/** html-validate's errors for a page's markup (as the server sent it), as readable lines. */
export async function htmlErrors(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  // The element's selector too: server-rendered pages are often one long line.
  return report.results.flatMap((r) => r.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message} (line ${m.line}${m.selector ? `, ${m.selector}` : ""})`));
}
