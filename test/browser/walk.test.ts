// Issue 33's "no dead ends" walk: as anonymous, the depositor, the community's curator and an
// administrator, every page reachable from the front page by its links is opened in Chromium
// (test/helpers/walk.ts says which links are followed and what each page is checked for); each
// person's failures are listed together. The rules themselves are tested first on plain text.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { signIn, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { formatFailures, linkKind, problemsInText, shapeOf, walkSite, type WalkResult } from "../helpers/walk";
import { seedRepository, type Seeded } from "../helpers/walk-seed";

describe("the walk's rules", () => {
  test("an internal field path is a problem; a file name, a URL or an e-mail address is not", () => {
    expect(problemsInText("`files.enabled`: Missing uploaded files")).toContain('an internal field path: "files.enabled"');
    expect(problemsInText("metadata.creators.0.affiliations: unknown")).toEqual(['an internal field path: "metadata.creators.0.affiliations"']);
    expect(problemsInText("custom_fields.journal:journal.title is required")).toEqual(['an internal field path: "custom_fields.journal:journal.title"']);
    expect(problemsInText("Download files.csv or access.log, see https://x.org/metadata.json, mail access.desk@example.org")).toEqual([]);
  });
  test("a UUID, a JSON object, a nameless person, backticks and missing values are problems", () => {
    expect(problemsInText("Request 3f2a8c1e-4b5d-4e6f-8a9b-0c1d2e3f4a5b was accepted")).toEqual(['a bare id: "Request 3f2a8c1e-4b5d-4e6f-8a9b-0c1d2e3f4a5b was accepted"']);
    expect(problemsInText('{"status": 404, "message": "Not found"}')).toEqual(['a JSON object: "{"status": 404, "message": "Not found"}"']);
    expect(problemsInText("Asked by system on 22 November")).toEqual(['a person shown without a name: "Asked by system on 22 November"']);
    expect(problemsInText("Commented by user 12")).toEqual(['a person shown without a name: "Commented by user 12"']);
    expect(problemsInText("Sign in with your `username`")).toEqual(['markdown backticks printed: "`username`"']);
    expect(problemsInText("Size: undefined")).toEqual(['a missing value printed: "Size: undefined"']);
    expect(problemsInText("Ocean buoy temperatures by Ada Lovelace, 10.5281/zenodo.123, record abcde-12345, 3 users")).toEqual([]);
  });
  test("links: ids share a shape; actions, assets and harvesting are skipped; downloads and machine formats only fetched", () => {
    const url = (path: string) => new URL(path, "http://127.0.0.1");
    expect(shapeOf(url("/records/abcde-12345?preview=1&token=x"))).toBe("/records/{id}?preview&token");
    expect(shapeOf(url("/me/requests/3f2a8c1e-4b5d-4e6f-8a9b-0c1d2e3f4a5b"))).toBe("/me/requests/{id}");
    expect(shapeOf(url("/search?q=a&page=2&f=x&f=y"))).toBe("/search?f&page&q");
    expect(["/logout", "/static/site.css", "/oai2d", "/oauth/login/orcid"].map((p) => linkKind(url(p), false))).toEqual(["skip", "skip", "skip", "skip"]);
    expect(["/api/records/abcde-12345/files/a.csv/content", "/records/abcde-12345/export/json"].map((p) => linkKind(url(p), false))).toEqual(["fetch", "fetch"]);
    expect([linkKind(url("/records/abcde-12345"), true), linkKind(url("/records/abcde-12345"), false)]).toEqual(["fetch", "page"]);
  });
});

/** A site with one of each fault behind the links of its front page, and pages that have none. */
function faultySite() {
  const html = (body: string, status = 200) =>
    new Response(`<!doctype html><html lang="en"><head><title>t</title></head><body>${body}</body></html>`, { status, headers: { "Content-Type": "text/html; charset=utf-8" } });
  const id = "3f2a8c1e-4b5d-4e6f-8a9b-0c1d2e3f4a5b";
  const pages: Record<string, () => Response> = {
    "/": () =>
      html(
        [
          "/json",
          "/missing",
          "/broken",
          "/uuid",
          "/path",
          "/ok",
          "/file",
          "/logout",
          "/static/x",
          "/oai2d",
          "/api/gone",
          "/records/abcde-12345/export/json",
          "https://example.org/",
        ]
          .map((href) => `<a href="${href}">${href}</a>`)
          .join(" ") + ` <code>${id}</code>`,
      ),
    "/json": () => Response.json({ status: 404, message: "Not found" }),
    "/missing": () => html("<h1>Not found</h1>", 404),
    "/broken": () => html("<h1>Error</h1>", 500),
    "/uuid": () => html(`<p>Request ${id} was accepted.</p>`),
    "/path": () => html(`<p class="field-error">metadata.creators.0.affiliations: unknown</p>`),
    "/ok": () => html("<p>Nothing wrong here: data.csv, record abcde-12345.</p>"),
    "/file": () => new Response("a,b\n", { headers: { "Content-Type": "text/csv", "Content-Disposition": 'attachment; filename="f.csv"' } }),
    "/records/abcde-12345/export/json": () => Response.json({ id: "abcde-12345" }),
  };
  // Anything else (/logout, /static/x, /oai2d, /api/gone) fails if it is opened or fetched: the walk must skip or only fetch it.
  return Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => pages[new URL(request.url).pathname]?.() ?? html("<h1>Gone</h1>", 404) });
}

let app: BrowserApp;
let seeded: Seeded;
const contexts: BrowserContext[] = [];
/** The walks, by person: each test waits for its own. */
const walks = new Map<string, Promise<WalkResult | Error>>();

/** A test waits for its walk, begun with the others by the first test that needs one. */
const WALK_MS = 240_000;

const PEOPLE: [person: string, login: string | undefined][] = [
  ["anonymous", undefined],
  ["alice (depositor)", "alice"],
  ["carol (curator)", "carol"],
  ["admin", "admin"],
];

beforeAll(async () => {
  app = await startBrowserApp();
  seeded = await seedRepository(app);
}, 60_000);

/** Begins the four walks side by side on the first test that needs one (each person their own browser profile). */
function startWalks() {
  if (walks.size) return;
  for (const [person, login] of PEOPLE) {
    const walk = async () => walkSite(await personPage(login), app.base, { person, logs: app.logs });
    walks.set(
      person,
      walk().catch((error: Error) => error),
    );
  }
}
afterAll(async () => {
  await Promise.all(walks.values());
  for (const context of contexts) await context.close();
  await app.stop();
}, WALK_MS);

/** A page of a fresh browser profile, signed in as `login` (none: anonymous). */
async function personPage(login?: string): Promise<Page> {
  const context = await app.newPerson();
  contexts.push(context);
  const page = await context.newPage();
  page.on("dialog", (dialog) => void dialog.dismiss());
  if (login) await signIn(page, login, `${login}-password`);
  return page;
}

/** The person's walk found no failures, reached `mustReach` (shapes) and opened `mustOpen` (paths of the seeded things). */
async function expectWalk(person: string, mustReach: string[], mustOpen: (seeded: Seeded) => string[]) {
  startWalks();
  const result = await walks.get(person)!;
  if (result instanceof Error) throw result;
  if (process.env.WALK_TRACE) console.log(person, result.visited.length, "pages", result.timing, result.visited.join("\n"));
  const missed = [...mustReach.filter((shape) => !result.shapes.has(shape)), ...mustOpen(seeded).filter((path) => !result.visited.includes(path))];
  // What it did reach is shown beside a missed one, to tell a missing link from a failed page.
  const reached = missed.length ? [...result.shapes.keys()] : [];
  expect({ missed, reached, failures: formatFailures(result.failures) }).toEqual({ missed: [], reached: [], failures: "" });
}

test("the walk reports each fault with its page, and nothing for skipped links, downloads and machine formats", async () => {
  const site = faultySite();
  const base = `http://127.0.0.1:${site.port}`;
  const context = await app.browser.newContext({ baseURL: base });
  try {
    // The fixture's pages are checked for their text only (their markup is minimal on purpose).
    const result = await walkSite(await context.newPage(), base, { person: "tester", checked: new Set(["/", "/uuid", "/path", "/ok", "/missing", "/broken"]) });
    expect(result.failures.map((f) => `${f.url} <- ${f.from}: ${f.problem}`)).toEqual([
      "/api/gone <- /: answers 404 (a download or a machine format)",
      "/json <- /: a raw JSON body (application/json;charset=utf-8)",
      "/missing <- /: answers 404",
      "/broken <- /: answers 500",
      '/uuid <- /: a bare id: "Request 3f2a8c1e-4b5d-4e6f-8a9b-0c1d2e3f4a5b was accepted."',
      '/path <- /: an internal field path: "metadata.creators.0.affiliations"',
    ]);
    expect(result.visited).toEqual(["/", "/json", "/missing", "/broken", "/uuid", "/path", "/ok", "/file"]);
  } finally {
    await context.close();
    await site.stop(true);
  }
}, 60_000);

describe("every page reachable from the front page", () => {
  test(
    "as anonymous",
    () =>
      expectWalk("anonymous", ["/", "/search", "/search/help", "/records/{id}", "/communities", "/communities/ocean", "/login?next"], (s) => [
        `/records/${s.publicId}`,
        `/records/${s.filesRestrictedId}`,
      ]),
    WALK_MS,
  );
  test(
    "as the depositor",
    () =>
      expectWalk(
        "alice (depositor)",
        [
          "/",
          "/me/uploads",
          "/uploads/{id}",
          "/uploads/new",
          "/me/requests",
          "/me/requests/{id}",
          "/records/{id}",
          "/records/{id}/share",
          "/account/settings/profile",
          "/account/settings/applications",
        ],
        (s) => [`/records/${s.restrictedId}`, `/uploads/${s.draftId}`, `/uploads/${s.reviewDraftId}`, `/me/requests/${s.reviewRequestId}`],
      ),
    WALK_MS,
  );
  test(
    "as the community's curator",
    () =>
      expectWalk(
        "carol (curator)",
        ["/", "/me/requests", "/me/requests/{id}", "/communities/ocean", "/communities/ocean/requests", "/communities/ocean/members", "/me/communities"],
        (s) => [`/me/requests/${s.reviewRequestId}`],
      ),
    WALK_MS,
  );
  test(
    "as an administrator",
    () =>
      expectWalk(
        "admin",
        [
          "/",
          "/administration",
          "/administration/users/{id}",
          "/administration/records/{id}",
          "/administration/communities/{id}",
          "/administration/vocabularies/{type}",
          "/administration/mail/{id}",
          "/records/{id}",
        ],
        (s) => [`/administration/records/${s.deletedId}`, `/administration/communities/${s.community.id}`],
      ),
    WALK_MS,
  );
});
