// Health's checks one by one: each configuration warning on and off (mail, DOIs, the self-signed
// certificate, the default admin e-mail, open sign-up without moderation) and the search index's
// completeness (records and drafts in the database against the index), on the page and from the service.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configurationWarnings, createHealthService, searchIndexWarning } from "../../src/admin/health";
import { loadConfig, type LoadOptions } from "../../src/config";
import { systemActor } from "../../src/core/actor";
import { REINDEX_JOB } from "../../src/records/jobs";
import { sessionCookie } from "../helpers/accounts";
import { createTestApp, type TestApp } from "../helpers/app";
import { createDraft, publishRecord } from "../helpers/records";
import { raw } from "../helpers/sign-in";

const dir = mkdtempSync(join(tmpdir(), "cairn-health-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Everything set as it should be: no warning. */
type Flags = NonNullable<LoadOptions["flags"]>;
const GOOD: Flags = { DATA_DIR: dir, HTTP: true, MAIL_SERVER: "smtp.example.org", DATACITE_PREFIX: "10.1234", ACCOUNTS_REGISTERABLE: false };
const configOf = (changes: Flags = {}) => loadConfig({ flags: { ...GOOD, ...changes }, env: {} });
const keysOf = (changes: Flags, emails = ["ops@example.org"]) => configurationWarnings(configOf(changes), emails).map((w) => w.key);

describe("configuration warnings, each on and off", () => {
  test("a well-set installation has none", () => {
    expect(keysOf({})).toEqual([]);
  });

  test.each([
    ["mail-off", { MAIL_SERVER: "" }],
    ["dois-off", { DATACITE_PREFIX: "" }],
    ["self-signed-certificate", { HTTP: false }],
    ["registration-open", { ACCOUNTS_REGISTERABLE: true }],
  ] as const)("%s: on by its setting alone", (key, changes) => {
    expect(keysOf(changes)).toEqual([key]);
  });

  test("the self-signed certificate: not with HTTPS on a certificate of one's own", () => {
    expect(keysOf({ HTTP: false, TLS_CERT: join(dir, "cert.pem"), TLS_KEY: join(dir, "key.pem") })).toEqual([]);
  });

  test("open sign-up: not while new accounts are moderated", () => {
    expect(keysOf({ ACCOUNTS_REGISTERABLE: true, ACCOUNTS_MODERATION: "first-publish" })).toEqual([]);
    expect(configurationWarnings(configOf({ ACCOUNTS_REGISTERABLE: true }), [])[0]?.message).toBe(
      "Anyone may make an account at /signup (ACCOUNTS_REGISTERABLE is on), and new accounts are not moderated (ACCOUNTS_MODERATION is off).",
    );
  });

  test("the default admin e-mail: while any administrator has it, whatever its case", () => {
    expect(keysOf({}, ["ops@example.org", "Admin@Localhost"])).toEqual(["default-admin-email"]);
    expect(keysOf({}, ["admin@localhost.example.org", "ops@example.org"])).toEqual([]);
    expect(keysOf({}, [])).toEqual([]);
  });
});

describe("the search index's completeness", () => {
  let app: TestApp;
  let cookie: string;

  beforeAll(async () => {
    app = await createTestApp({ MAIL_SERVER: "smtp.example.org", DATACITE_PREFIX: "10.1234", DATACITE_USERNAME: "u", DATACITE_PASSWORD: "p" });
    cookie = await sessionCookie(app, "admin", "admin-password");
    await publishRecord(app);
    await publishRecord(app);
    await createDraft(app);
  });
  afterAll(() => app.close());

  const page = async () => (await raw(app, "GET", "/administration/health", { cookie })).text;
  const warnings = (html: string) => [...html.matchAll(/data-warning="([^"]+)"/g)].map((m) => m[1]);
  const indexFact = (html: string) => /<dt>Search index<\/dt><dd>([^<]*)<\/dd>/.exec(html)?.[1];

  test("complete: every record and draft indexed, shown and no warning", async () => {
    const html = await page();
    expect(indexFact(html)).toBe("Complete: 2 of 2 records, 1 of 1 drafts");
    expect(warnings(html)).toEqual([]);
    expect((await app.services.health.readHealth(systemActor)).searchIndex).toEqual({
      records: 2,
      drafts: 1,
      indexedRecords: 2,
      indexedDrafts: 1,
      outdated: false,
      complete: true,
    });
  });

  test("index rows lost: shown incomplete with the counts, a warning until a reindex", async () => {
    await app.services.deps.db.statements.run("DELETE FROM record_index WHERE key = (SELECT min(key) FROM record_index WHERE is_draft = 0)");
    await app.services.deps.db.statements.run("DELETE FROM record_index WHERE is_draft = 1");
    const html = await page();
    expect(indexFact(html)).toBe("Incomplete: 1 of 2 records, 0 of 1 drafts");
    expect(warnings(html)).toEqual(["search-index-incomplete"]);
    expect(html).toContain("The search index holds 1 of 2 records and 0 of 1 drafts: searches and OAI-PMH miss the rest until `cairn reindex` (or a restart) rebuilds it.");

    expect((await app.services.jobs.runNow(systemActor, REINDEX_JOB)).status).toBe("succeeded");
    const after = await page();
    expect(indexFact(after)).toBe("Complete: 2 of 2 records, 1 of 1 drafts");
    expect(warnings(after)).toEqual([]);
  });

  test("an index an older Cairn built (all rows there) says to rebuild it", () => {
    const counts = { records: 3, drafts: 1, indexedRecords: 3, indexedDrafts: 1 };
    expect(searchIndexWarning({ ...counts, outdated: true, complete: false })?.message).toBe(
      "The search index was built by an older Cairn: run `cairn reindex` (or restart, which rebuilds it in the background).",
    );
    expect(searchIndexWarning({ ...counts, outdated: false, complete: true })).toBeNull();
  });

  test("the warning comes first after the disk's, before the configuration's", async () => {
    const health = createHealthService({
      config: configOf({ MAIL_SERVER: "" }),
      clock: app.clock,
      startedAt: 0,
      adminEmails: async () => [],
      checkIndex: async () => ({ records: 1, drafts: 0, indexedRecords: 0, indexedDrafts: 0, outdated: false, complete: false }),
      diskOf: () => ({ freeBytes: 5, totalBytes: 100 }),
    });
    expect((await health.readHealth(systemActor)).warnings.map((w) => w.key)).toEqual(["disk-low", "search-index-incomplete", "mail-off"]);
  });
});
