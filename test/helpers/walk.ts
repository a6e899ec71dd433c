// The page walk (issue 33, "no dead ends"): every same-site link followed breadth-first from the
// front page as one person, each page checked for what a person must never see — a raw JSON body,
// an internal field path, a bare id where words belong, a server error or a dead link — and the
// failures collected, so one run lists them all.
import type { Page } from "playwright-core";
import { htmlErrors, seriousAxeViolations } from "./browser";

/** An internal field path: an API field name, a dot, and more of the path (`metadata.creators.0.affiliations`, `files.enabled`). */
const FIELD_PATH =
  /(?<![\w./@:-])(?:metadata|access|files|pids|custom_fields|parent|receiver|payload|tombstone|settings|topic|created_by|links|errors|hits)\.(?:[a-z_][a-z0-9_]*(?::[a-z_][a-z0-9_]*)?|\d+)(?:\.(?:[a-z_][a-z0-9_]*(?::[a-z_][a-z0-9_]*)?|\d+))*(?![\w/@-]|\.\w)/g;
/** A file name's extension: `files.csv` or `access.log` is a name a person gave, not a field path. */
const FILE_EXTENSION = /^(csv|tsv|txt|md|json|xml|pdf|png|jpe?g|gif|svg|zip|gz|tar|log|dat|nc|h5|xlsx?|docx?|py|r|ipynb)$/i;
/** A UUID (request, community, job and group ids are UUIDs): never words a person reads. */
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
/** A JSON object's start (`{"status": 404`): a raw body or a dumped value. */
const JSON_OBJECT = /\{\s*"[A-Za-z_][\w.-]*"\s*:/;
/** The service itself or a bare user number shown as a person ("user system", "by system", "user 12"). */
const NO_NAME = /\b(?:(?:user|by)\s+system|user\s+#?\d+)\b/i;
/** Markdown that was printed instead of rendered: a `code` span in backticks. */
const BACKTICKS = /`[^`\s][^`\n]*`/;
/** What a template prints when a value is missing. */
const PLACEHOLDER = /\b(?:undefined|NaN)\b|\[object Object\]/;

/**
 * The problems in a page's visible text (document.body.innerText), one line each. Text the page
 * marks as an identifier to copy (inside <code>, <kbd>, <samp>, or an input's value) is not
 * visible text here: `visibleText` leaves it out.
 */
export function problemsInText(text: string): string[] {
  const problems: string[] = [];
  for (const match of text.matchAll(FIELD_PATH)) {
    const parts = match[0].split(".");
    if (parts.length === 2 && FILE_EXTENSION.test(parts[1]!)) continue;
    problems.push(`an internal field path: "${match[0]}"`);
  }
  for (const match of text.matchAll(UUID)) if (!inUrl(text, match.index!)) problems.push(`a bare id: "${around(text, match.index!, match[0].length)}"`);
  const json = JSON_OBJECT.exec(text);
  if (json) problems.push(`a JSON object: "${around(text, json.index, json[0].length)}"`);
  const noName = NO_NAME.exec(text);
  if (noName) problems.push(`a person shown without a name: "${around(text, noName.index, noName[0].length)}"`);
  const ticks = BACKTICKS.exec(text);
  if (ticks) problems.push(`markdown backticks printed: "${ticks[0]}"`);
  const placeholder = PLACEHOLDER.exec(text);
  if (placeholder) problems.push(`a missing value printed: "${around(text, placeholder.index, placeholder[0].length)}"`);
  return [...new Set(problems)];
}

/** Whether the text at `at` is part of a web address (a link printed as text, as a mail's body shows it). */
const inUrl = (text: string, at: number) => /https?:\/\/\S*$/.test(text.slice(Math.max(0, at - 200), at));

/** A match with a few words either side, on one line. */
const around = (text: string, at: number, length: number) =>
  text
    .slice(Math.max(0, at - 30), at + length + 30)
    .replace(/\s+/g, " ")
    .trim();

/** The page's visible text without what it marks as code to copy (ids, tokens, commands). */
export const visibleText = (page: Page) => page.evaluate(VISIBLE_TEXT) as Promise<string>;

// Run in the page (a string: the tests are compiled without the DOM's types). The code elements'
// contents are set aside while the text is read, then put back as they were.
const VISIBLE_TEXT = `(() => {
  const aside = [...document.body.querySelectorAll("code, kbd, samp")].map((element) => {
    const fragment = document.createDocumentFragment();
    fragment.append(...element.childNodes);
    return { element, fragment };
  });
  const text = document.body.innerText;
  for (const { element, fragment } of aside) element.append(fragment);
  return text;
})()`;

/**
 * The path pattern of a URL: ids (record ids, UUIDs, numbers, tokens) and vocabulary types
 * (`/administration/vocabularies/{type}`: one screen for all) replaced, and the query's parameter
 * names without their values, so paging and facet links share one shape.
 */
export function shapeOf(url: URL): string {
  const parts = url.pathname.split("/");
  const path = parts
    .map((part, i) =>
      /^[a-z0-9]{5}-[a-z0-9]{5}$/.test(part) || /^[0-9a-f-]{36}$/i.test(part) || /^\d+$/.test(part) || /^[A-Za-z0-9_-]{24,}$/.test(part)
        ? "{id}"
        : i === 3 && parts[1] === "administration" && parts[2] === "vocabularies"
          ? "{type}"
          : part,
    )
    .join("/");
  const keys = [...new Set(url.searchParams.keys())].sort();
  return keys.length ? `${path}?${keys.join("&")}` : path;
}

/**
 * URLs opened per shape: 3, and more for the pages whose content differs by the thing shown (a
 * record public, restricted, deleted or in review; an access request, a review or an invitation).
 */
export const PER_SHAPE: Record<string, number> = { "/records/{id}": 8, "/me/requests/{id}": 8, "/uploads/{id}": 4 };
const DEFAULT_PER_SHAPE = 3;

/** How a link is treated. */
export type LinkKind = "skip" | "fetch" | "page";

/**
 * The walk's rule for one same-site link: never `/logout`, `/static/` (assets), `/oai2d` (the
 * harvesting protocol) or a provider's sign-in (`/oauth/login/`, `/saml/login/`, which leave the
 * site); fetched without being shown — only its status checked — when it is meant for programs or
 * downloads: `/api/` (file content, archives, the record's JSON), a record's export formats
 * (`/records/{id}/export/{format}`) and any `<a download>`; every other link is a page, opened.
 */
export function linkKind(url: URL, hasDownload: boolean): LinkKind {
  const path = url.pathname;
  if (path === "/logout" || path.startsWith("/static/") || path === "/oai2d" || /^\/(oauth|saml)\/login\//.test(path)) return "skip";
  if (hasDownload || path.startsWith("/api/") || /^\/records\/[^/]+\/export\//.test(path)) return "fetch";
  return "page";
}

export interface WalkFailure {
  person: string;
  /** The page (path and query) that failed, and the page that printed the link to it. */
  url: string;
  from: string;
  problem: string;
}

export interface WalkOptions {
  person: string;
  /** Most pages opened (the de-duplication keeps the walk far below it; it stops a runaway). */
  maxPages?: number;
  /**
   * Shapes not to check with axe and html-validate (default none): each shape is checked once per
   * person, as the person sees it (a signed-in header, an owner's buttons).
   */
  checked?: Set<string>;
  /** The widths axe runs at. */
  widths?: number[];
  /** The server's log lines so far: a 5xx failure quotes the new ones (the error's cause). */
  logs?: string[];
}

export interface WalkResult {
  /** The paths opened, in order. */
  visited: string[];
  /** Milliseconds spent opening pages and in axe. */
  timing: { pages: number; axe: number };
  /** Every shape reached, with the first URL of it. */
  shapes: Map<string, string>;
  failures: WalkFailure[];
}

const HTML = /^text\/html\b/i;
const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\b/i;

/**
 * Starts at `/` and opens every same-site `<a href>` breadth-first as the person signed in on
 * `page`, checking each page; forms are never sent (the walk changes nothing).
 */
export async function walkSite(page: Page, base: string, options: WalkOptions): Promise<WalkResult> {
  const { person, maxPages = 250, checked = new Set<string>(), widths = [1280, 390], logs = [] } = options;
  const origin = new URL(base).origin;
  const queue: { url: string; from: string }[] = [{ url: "/", from: "(start)" }];
  const seen = new Set<string>(["/"]);
  const perShapeCount = new Map<string, number>();
  const shapes = new Map<string, string>();
  const visited: string[] = [];
  const failures: WalkFailure[] = [];
  const timing = { pages: 0, axe: 0 };
  const fail = (url: string, from: string, problem: string) => failures.push({ person, url, from, problem });

  while (queue.length && visited.length < maxPages) {
    const { url, from } = queue.shift()!;
    visited.push(url);
    const logged = logs.length;
    const started = performance.now();
    const response = await page.goto(url, { waitUntil: "load" }).catch((error: Error) => error);
    // A link that starts a download (Content-Disposition: attachment) has no page: fine.
    if (response instanceof Error && /Download is starting/.test(response.message)) continue;
    if (response instanceof Error || !response) {
      fail(url, from, `did not open: ${response instanceof Error ? response.message.split("\n")[0] : "no answer"}`);
      continue;
    }
    timing.pages += performance.now() - started;
    const status = response.status();
    const type = response.headers()["content-type"] ?? "";
    const disposition = response.headers()["content-disposition"] ?? "";
    // A tombstone answers 410 with its page; any other error status for a link the site printed is a dead end.
    if (status >= 400 && status !== 410) fail(url, from, `answers ${status}${status >= 500 && logs.length > logged ? `: ${logs.slice(logged).join(" | ").slice(0, 400)}` : ""}`);
    if (JSON_TYPE.test(type)) {
      fail(url, from, `a raw JSON body (${type})`);
      continue;
    }
    if (!HTML.test(type) || /attachment/i.test(disposition)) continue;

    const shape = shapeOf(new URL(page.url()));
    if (!shapes.has(shape)) shapes.set(shape, url);
    for (const problem of problemsInText(await visibleText(page))) fail(url, from, problem);
    if (!checked.has(shape)) {
      checked.add(shape);
      for (const error of await htmlErrors(await response.text())) fail(url, from, `html-validate: ${error}`);
      const viewport = page.viewportSize();
      const axeStarted = performance.now();
      for (const width of widths) {
        await page.setViewportSize({ width, height: 900 });
        for (const v of await seriousAxeViolations(page))
          fail(
            url,
            from,
            `axe at ${width} px: ${v.id} (${v.impact}) ${v.help} — ${v.nodes
              .map((n) => n.target.join(" "))
              .slice(0, 3)
              .join(", ")}`,
          );
      }
      if (viewport) await page.setViewportSize(viewport);
      timing.axe += performance.now() - axeStarted;
    }

    const links = (await page.$$eval("a[href]", (as) => as.map((a) => ({ href: (a as unknown as { href: string }).href, download: a.hasAttribute("download") })))) as {
      href: string;
      download: boolean;
    }[];
    for (const link of links) {
      const target = new URL(link.href);
      if (target.origin !== origin) continue;
      target.hash = "";
      const path = target.pathname + target.search;
      if (seen.has(path)) continue;
      seen.add(path);
      const kind = linkKind(target, link.download);
      if (kind === "skip") continue;
      if (kind === "fetch") {
        const answer = await page.request.get(path, { maxRedirects: 5 });
        if (answer.status() >= 400) fail(path, url, `answers ${answer.status()} (a download or a machine format)`);
        await answer.dispose();
        continue;
      }
      const linkShape = shapeOf(target);
      const count = perShapeCount.get(linkShape) ?? 0;
      if (count >= (PER_SHAPE[linkShape] ?? DEFAULT_PER_SHAPE)) continue;
      perShapeCount.set(linkShape, count + 1);
      queue.push({ url: path, from: url });
    }
  }
  if (queue.length) fail(queue[0]!.url, queue[0]!.from, `the walk stopped at ${maxPages} pages with ${queue.length} still queued: raise maxPages`);
  return { visited, shapes, failures, timing };
}

/** The failures as one readable list, grouped by person then page. */
export const formatFailures = (failures: WalkFailure[]) => failures.map((f) => `${f.person} ${f.url} (linked from ${f.from}): ${f.problem}`).join("\n");
