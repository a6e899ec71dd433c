// The landing page's views and downloads (the record's `stats` as the REST API gives them), the DOI
// badge with its snippets and its SVG route, the CSV/TSV preview as a table (the first 1,000 rows
// of a big file, quoted delimiters and line breaks in their cells), and file names that wrap.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { createDraft, publishableDraft, publishDraft, publishRecord } from "../helpers/records";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const CURL = "curl/8.5.0";
const page = (id: string) => app.call("GET", `/records/${id}`, { headers: { accept: "text/html" } });
/** The text of an element's inner HTML, tags dropped and entities of the page decoded. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .trim();
const section = (html: string, cls: string) => new RegExp(`<section class="card ${cls}"[\\s\\S]*?</section>`).exec(html)?.[0] ?? "";
const cells = (html: string, tag: "td" | "th") => [...html.matchAll(new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => textOf(m[1]!));
const rowsOf = (table: string) => [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => cells(m[1]!, "td"));

async function withFiles(files: [string, string][], overrides: Record<string, unknown> = {}) {
  const draft = await createDraft(app, publishableDraft({ files: { enabled: true }, ...overrides }), { files });
  return publishDraft(app, draft.id);
}

describe("views and downloads", () => {
  test("this version and all versions, as the record's stats in the REST API say", async () => {
    const v1 = await withFiles([["data.txt", "hello"]]);
    const draft = (await app.call("POST", `/api/records/${v1.id}/versions`, { as: "alice" })).json;
    expect((await app.call("PUT", `/api/records/${draft.id}/draft`, { as: "alice", body: publishableDraft({ files: { enabled: false } }) })).status).toBe(200);
    const v2 = await publishDraft(app, draft.id);
    const visit = (id: string, agent: string) => app.call("GET", `/api/records/${id}`, { headers: { "user-agent": agent } });
    await visit(v1.id, FIREFOX);
    await visit(v1.id, CHROME);
    await visit(v2.id, CHROME);
    for (const agent of [FIREFOX, CHROME])
      await app.services.stats.recordDownload({
        recordId: v1.id,
        parentId: v1.parent.id,
        fileKey: "data.txt",
        bytes: 5,
        actor: { kind: "anonymous" },
        visitor: { address: null, userAgent: agent },
      });
    await app.services.stats.aggregate();
    const api = (await visit(v1.id, CURL)).json.stats;
    expect({ views: [api.this_version.unique_views, api.all_versions.unique_views], downloads: [api.this_version.unique_downloads, api.all_versions.unique_downloads] }).toEqual({
      // Across versions one visitor in one hour is one view (CHROME saw both).
      views: [2, 2],
      downloads: [2, 2],
    });
    const stats = section((await page(v1.id)).text, "record-stats");
    expect(cells(stats, "th")).toEqual(["This version", "All versions", "Views", "Downloads"]);
    expect(rowsOf(stats).slice(1)).toEqual([
      ["2", "2"],
      ["2", "2"],
    ]);
    const second = section((await page(v2.id)).text, "record-stats");
    expect(rowsOf(second).slice(1)).toEqual([
      ["1", "2"],
      ["0", "2"],
    ]);
  });

  test("no statistics section when statistics are off", async () => {
    const off = await createTestApp({ STATS_ENABLED: false });
    try {
      const record = await publishRecord(off);
      const res = await off.call("GET", `/records/${record.id}`, { headers: { accept: "text/html" } });
      expect({ status: res.status, stats: res.text.includes("record-stats") }).toEqual({ status: 200, stats: false });
    } finally {
      await off.close();
    }
  });
});

describe("the DOI badge", () => {
  const DOI = "10.5555/cairn-badge.2026_01";
  test("a record with a DOI shows the badge, linked to the DOI, with Markdown and HTML to copy", async () => {
    const record = await publishRecord(app, publishableDraft({ pids: { doi: { identifier: DOI, provider: "external" } } }));
    const badge = section((await page(record.id)).text, "doi-badge");
    const image = "http://127.0.0.1:5000/badge/DOI/10.5555/cairn-badge.2026_01.svg";
    // The record's `links.doi`: the test resolver while DataCite runs in test mode.
    const resolver = record.links.doi;
    expect(resolver).toBe(`https://handle.stage.datacite.org/${DOI}`);
    expect(badge).toContain(`<a href="${resolver}"><img src="/badge/DOI/10.5555/cairn-badge.2026_01.svg" alt="DOI: ${DOI}" height="20"/></a>`);
    const snippets = [...badge.matchAll(/<label for="([^"]+)">([^<]+)<\/label><textarea id="\1"[^>]*>([\s\S]*?)<\/textarea>/g)].map((m) => [m[2], textOf(m[3]!)]);
    expect(snippets).toEqual([
      ["Markdown", `[![DOI](${image})](${resolver})`],
      ["HTML", `<a href="${resolver}"><img src="${image}" alt="DOI"></a>`],
    ]);
    expect(badge).toContain('data-copy="badge-markdown"');
    expect(badge).toContain('data-copy="badge-html"');
  });

  test("no badge without a DOI", async () => {
    const record = await publishRecord(app);
    expect(section((await page(record.id)).text, "doi-badge")).toBe("");
  });

  test("the badge is an SVG served here, for any well-formed DOI; anything else is a 404", async () => {
    const res = await app.call("GET", `/badge/DOI/${DOI}.svg`);
    expect({ status: res.status, type: res.headers.get("content-type"), csp: res.headers.get("content-security-policy") }).toEqual({
      status: 200,
      type: "image/svg+xml; charset=utf-8",
      csp: "default-src 'none'",
    });
    expect(res.text).toStartWith('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(res.text).toContain(`<title>DOI: ${DOI}</title>`);
    expect(res.text).toContain(`>${DOI}</text>`);
    // Markup in a DOI is text in the picture, never markup.
    const odd = await app.call("GET", `/badge/DOI/10.1234/${encodeURIComponent('<script>"x"')}.svg`);
    expect(odd.status).toBe(200);
    expect(odd.text).toContain("&#60;script&#62;&#34;x&#34;");
    expect(odd.text).not.toContain("<script");
    for (const path of ["/badge/DOI/not-a-doi.svg", `/badge/DOI/${DOI}.png`, "/badge/DOI/10.12/x.svg", "/badge/DOI/%E2%82.svg"]) {
      const refused = await app.call("GET", path);
      expect({ path, status: refused.status }).toEqual({ path, status: 404 });
    }
  });
});

describe("the CSV and TSV preview", () => {
  const ROWS = 50_000;
  const bigCsv = () => {
    const lines = ['id,name,"note, with comma"'];
    lines.push('1,"Smith, Jane","line one\nline two"');
    lines.push('2,"say ""hi""",plain');
    for (let i = 3; i <= ROWS; i++) lines.push(`${i},name ${i},note ${i}`);
    return `${lines.join("\r\n")}\r\n`;
  };

  test("a 50,000-row CSV: the first 1,000 rows as a table, quoted fields in their cells, and the note", async () => {
    const csv = bigCsv();
    const record = await withFiles([["survey_results-2026.final.csv", csv]]);
    const res = await page(record.id);
    expect(res.status).toBe(200);
    const table = /<table class="csv">[\s\S]*?<\/table>/.exec(res.text)?.[0] ?? "";
    expect(cells(table, "th")).toEqual(["id", "name", "note, with comma"]);
    const rows = rowsOf(table).slice(1);
    expect(rows).toHaveLength(1000);
    expect(rows[0]).toEqual(["1", "Smith, Jane", "line one\nline two"]);
    expect(rows[1]).toEqual(["2", 'say "hi"', "plain"]);
    expect(rows[999]).toEqual(["1000", "name 1000", "note 1000"]);
    expect(res.text).not.toContain("name 1001");
    const size = new TextEncoder().encode(csv).length;
    expect(textOf(/<p class="muted small table-note">([\s\S]*?)<\/p>/.exec(res.text)?.[1] ?? "")).toBe(
      `Showing the first 1,000 rows of ${size.toLocaleString("en")} bytes (${(size / 1e6).toFixed(1)} MB). Download the whole file.`,
    );
    // The table scrolls in its own focusable, named box.
    expect(res.text).toContain('<section class="table-scroll" tabindex="0" aria-label="Table preview of survey_results-2026.final.csv">');
  });

  test("a small TSV: every row, tabs inside quotes kept, no note; a short CSV needs none either", async () => {
    const tsv = 'station\tdepth (m)\tremark\nA-1\t12.5\t"tab\there"\nB-2\t7\t\n';
    const record = await withFiles([
      ["stations.tsv", tsv],
      ["z.csv", "a,b\n1,2\n"],
    ]);
    const res = await page(record.id);
    const table = /<table class="csv">[\s\S]*?<\/table>/.exec(res.text)?.[0] ?? "";
    expect(cells(table, "th")).toEqual(["station", "depth (m)", "remark"]);
    expect(rowsOf(table).slice(1)).toEqual([
      ["A-1", "12.5", "tab\there"],
      ["B-2", "7", ""],
    ]);
    expect(res.text).not.toContain("table-note");
    // The second table file's preview is loaded when opened, from its own table page.
    expect(res.text).toContain(`data-table-src="/records/${record.id}/table/z.csv"`);
    const other = await app.call("GET", `/records/${record.id}/table/z.csv`, { headers: { accept: "text/html" } });
    expect(other.status).toBe(200);
    expect(rowsOf(/<table class="csv">[\s\S]*?<\/table>/.exec(other.text)?.[0] ?? "").slice(1)).toEqual([["1", "2"]]);
    // The raw preview route still sends the text, as text.
    const raw = await app.call("GET", `/records/${record.id}/preview/stations.tsv`);
    expect({ status: raw.status, type: raw.headers.get("content-type"), text: raw.text }).toEqual({ status: 200, type: "text/plain; charset=utf-8", text: tsv });
  });

  test("the table page refuses what is no table, and what the caller may not read", async () => {
    const record = await withFiles([["readme.txt", "hello"]]);
    const notTable = await app.call("GET", `/records/${record.id}/table/readme.txt`, { headers: { accept: "text/html" } });
    expect({ status: notTable.status, says: notTable.text.includes("is not a CSV or TSV table") }).toEqual({ status: 404, says: true });
    const restricted = await createDraft(app, publishableDraft({ files: { enabled: true }, access: { record: "public", files: "restricted" } }), {
      files: [["secret.csv", "a\n1\n"]],
    });
    await publishDraft(app, restricted.id);
    const refused = await app.call("GET", `/records/${restricted.id}/table/secret.csv`, { headers: { accept: "text/html" } });
    expect({ status: refused.status, h1: /<h1>([^<]*)<\/h1>/.exec(refused.text)?.[1], table: refused.text.includes('<table class="csv">') }).toEqual({
      status: 401,
      h1: "Sign in needed",
      table: false,
    });
    const bob = await app.call("GET", `/records/${restricted.id}/table/secret.csv`, { as: "bob", headers: { accept: "text/html" } });
    expect({ status: bob.status, table: bob.text.includes('<table class="csv">') }).toEqual({ status: 403, table: false });
    const owner = await app.call("GET", `/records/${restricted.id}/table/secret.csv`, { as: "alice", headers: { accept: "text/html" } });
    expect({ status: owner.status, rows: rowsOf(/<table class="csv">[\s\S]*?<\/table>/.exec(owner.text)?.[0] ?? "").slice(1) }).toEqual({ status: 200, rows: [["1"]] });
  });
});

describe("file names", () => {
  test("break after _, - and . and inside camelCase, not mid-word", async () => {
    const record = await withFiles([["glacierMassBalance_svalbard-2020.v2.txt", "x"]]);
    const res = await page(record.id);
    expect(res.text).toContain('<span class="file-name">glacier<wbr/>Mass<wbr/>Balance_<wbr/>svalbard-<wbr/>2020.<wbr/>v2.<wbr/>txt</span>');
  });
});
