// Bad input on every curation route (draft reviews, submit-review, the record's communities,
// communities-suggestions, removing records from a community): malformed JSON, lists, scalars,
// wrong types per field, unknown ids, 100 KB strings and 11 items, from every kind of caller.
// Whatever comes back is never a 5xx, and every 4xx is a JSON body with `status` and `message`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectStatus } from "../helpers/app";
import { createCommunitiesTestApp, type CommunitiesTestApp, type Role } from "../helpers/communities";
import { createDraft, publishRecord } from "../helpers/records";

let t: CommunitiesTestApp;
let community: { id: string; slug: string };
beforeAll(async () => {
  t = await createCommunitiesTestApp();
  community = await t.makeCommunity("fuzz");
});
afterAll(() => t.close());

const BIG = "x".repeat(100_000);
const UNKNOWN_UUID = "00000000-0000-4000-8000-000000000000";
const UNKNOWN_RECORD = "zzzzz-zzzzz";
const eleven = <T>(make: (i: number) => T): T[] => Array.from({ length: 11 }, (_, i) => make(i));
const CALLERS: Role[] = ["anonymous", "alice", "bob", "admin", "owner"];

/** What a case works on: alice's draft (with a review asked for, where the routes allow it) and alice's published record (offered to the community). */
interface Fixture {
  draft: string;
  record: string;
  community: string;
}

async function fixture(): Promise<Fixture> {
  const draft = await createDraft(t);
  const record = await publishRecord(t);
  // Set up as far as the routes go; the answers are not what these tests are about.
  await t.call("PUT", `/api/records/${draft.id}/draft/review`, { as: "alice", body: { receiver: { community: community.id }, type: "community-submission" } });
  await t.call("POST", `/api/records/${record.id}/communities`, { as: "alice", body: { communities: [{ id: community.id }] } });
  return { draft: draft.id, record: record.id, community: community.id };
}

/** One call: a JSON body, or raw text (with a content type), and a query string. */
interface Case {
  name: string;
  body?: (f: Fixture) => unknown;
  raw?: string;
  contentType?: string;
  query?: string;
  /** Replaces the route's id in the path. */
  id?: string;
}

/** Bodies that are wrong whatever the route. */
const GENERIC: Case[] = [
  { name: "invalid JSON text", raw: "{not json" },
  { name: "truncated JSON", raw: '{"communities": [{"id": ' },
  { name: "JSON with a trailing comma", raw: '{"a": 1,}' },
  { name: "an empty body declared as JSON", raw: "" },
  { name: "a JSON list", body: () => [] },
  { name: "a list of objects", body: () => [{ id: UNKNOWN_UUID }] },
  { name: "a number", body: () => 42 },
  { name: "a string", body: () => "community-submission" },
  { name: "null", body: () => null },
  { name: "true", body: () => true },
  { name: "an empty object", body: () => ({}) },
  { name: "a 100 KB JSON string", body: () => BIG },
  { name: "100 KB of plain text", raw: BIG, contentType: "text/plain" },
  { name: "form data", raw: "communities=1", contentType: "application/x-www-form-urlencoded" },
  { name: "deeply nested lists", raw: "[".repeat(2000) + "]".repeat(2000) },
  { name: "11 unknown keys of 100 KB", body: () => Object.fromEntries(eleven((i) => [`k${i}`, BIG])) },
];

/** Ids in the path that name nothing (or something of the wrong kind). */
const recordIds = (f: Fixture): Case[] => [
  { name: "an unknown record id", id: UNKNOWN_RECORD },
  { name: "a malformed record id", id: "not-a-record-id!" },
  { name: "a 100 KB record id", id: BIG },
  { name: "an encoded traversal", id: "..%2F..%2Fetc%2Fpasswd" },
  { name: "a NUL byte", id: "abcde%0012345" },
  { name: "a community's id in place of a record's", id: f.community },
];

const review =
  (receiver: unknown, type: unknown = "community-submission") =>
  () => ({ receiver, type });
const REVIEW_FIELDS: Case[] = [
  { name: "receiver a string", body: review("fuzz") },
  { name: "receiver a number", body: review(5) },
  { name: "receiver null", body: review(null) },
  { name: "receiver a list", body: review([]) },
  { name: "receiver a list of 11", body: review(eleven(() => ({ community: UNKNOWN_UUID }))) },
  { name: "receiver.community a number", body: review({ community: 5 }) },
  { name: "receiver.community null", body: review({ community: null }) },
  { name: "receiver.community a list", body: review({ community: [] }) },
  { name: "receiver.community a list of 11 ids", body: review({ community: eleven(() => UNKNOWN_UUID) }) },
  { name: "receiver.community an object", body: review({ community: {} }) },
  { name: "receiver.community 100 KB", body: review({ community: BIG }) },
  { name: "receiver.community empty", body: review({ community: "" }) },
  { name: "receiver.community unknown", body: review({ community: UNKNOWN_UUID }) },
  { name: "receiver a user", body: review({ user: "1" }) },
  { name: "receiver with two kinds", body: () => ({ receiver: { community: community.id, user: "1" }, type: "community-submission" }) },
  { name: "type a number", body: review({ community: "fuzz" }, 5) },
  { name: "type null", body: review({ community: "fuzz" }, null) },
  { name: "type a list", body: review({ community: "fuzz" }, ["community-submission"]) },
  { name: "type 100 KB", body: review({ community: "fuzz" }, BIG) },
  { name: "no type", body: () => ({ receiver: { community: "fuzz" } }) },
];

const submission = (payload: unknown) => () => ({ payload });
const SUBMIT_FIELDS: Case[] = [
  { name: "payload a string", body: submission("Please review") },
  { name: "payload a number", body: submission(5) },
  { name: "payload null", body: submission(null) },
  { name: "payload a list", body: submission([]) },
  { name: "payload a list of 11", body: submission(eleven(() => ({ content: "x", format: "html" }))) },
  { name: "content a number", body: submission({ content: 5, format: "html" }) },
  { name: "content null", body: submission({ content: null, format: "html" }) },
  { name: "content a list", body: submission({ content: ["<p>x</p>"], format: "html" }) },
  { name: "content 100 KB", body: submission({ content: `<p>${BIG}</p>`, format: "html" }) },
  { name: "content only markup", body: submission({ content: "<script>alert(1)</script>", format: "html" }) },
  { name: "format a number", body: submission({ content: "<p>x</p>", format: 5 }) },
  { name: "format unknown", body: submission({ content: "<p>x</p>", format: "markdown" }) },
  { name: "format 100 KB", body: submission({ content: "<p>x</p>", format: BIG }) },
];

const communities = (list: unknown) => () => ({ communities: list });
const COMMUNITIES_FIELDS: Case[] = [
  { name: "communities a string", body: communities("fuzz") },
  { name: "communities a number", body: communities(5) },
  { name: "communities null", body: communities(null) },
  { name: "communities an object", body: communities({ id: "fuzz" }) },
  { name: "communities empty", body: communities([]) },
  { name: "11 communities", body: communities(eleven((i) => ({ id: i === 0 ? "fuzz" : `${UNKNOWN_UUID.slice(0, -2)}${String(i).padStart(2, "0")}` }))) },
  { name: "a duplicated id", body: (f) => ({ communities: [{ id: f.community }, { id: f.community }] }) },
  { name: "the same community by id and slug", body: (f) => ({ communities: [{ id: f.community }, { id: "fuzz" }] }) },
  { name: "entries numbers", body: communities([1, 2]) },
  { name: "entries strings", body: communities(["fuzz"]) },
  { name: "an entry null", body: communities([null]) },
  { name: "an entry without id", body: communities([{}]) },
  { name: "id a number", body: communities([{ id: 5 }]) },
  { name: "id null", body: communities([{ id: null }]) },
  { name: "id a list", body: communities([{ id: ["fuzz"] }]) },
  { name: "id an object", body: communities([{ id: { id: "fuzz" } }]) },
  { name: "id 100 KB", body: communities([{ id: BIG }]) },
  { name: "id empty", body: communities([{ id: "" }]) },
  { name: "id unknown", body: communities([{ id: UNKNOWN_UUID }]) },
  { name: "id unknown slug", body: communities([{ id: "no-such-community" }]) },
  { name: "require_review a string", body: communities([{ id: "fuzz", require_review: "yes" }]) },
  { name: "require_review 100 KB", body: communities([{ id: "fuzz", require_review: BIG }]) },
  { name: "comment a string", body: communities([{ id: "fuzz", comment: "hello" }]) },
  { name: "comment.payload a string", body: communities([{ id: "fuzz", comment: { payload: "hello" } }]) },
  { name: "comment content a number", body: communities([{ id: "fuzz", comment: { payload: { content: 5 } } }]) },
  { name: "comment content 100 KB", body: communities([{ id: "fuzz", comment: { payload: { content: BIG, format: "html" } } }]) },
  { name: "comment format unknown", body: communities([{ id: "fuzz", comment: { payload: { content: "x", format: "rtf" } } }]) },
];

const byDefault = (value: unknown) => () => ({ default: value });
const DEFAULT_FIELDS: Case[] = [
  { name: "default a number", body: byDefault(5) },
  { name: "default null", body: byDefault(null) },
  { name: "default a list", body: byDefault(["fuzz"]) },
  { name: "default a list of 11", body: byDefault(eleven(() => "fuzz")) },
  { name: "default an object", body: byDefault({ id: "fuzz" }) },
  { name: "default empty", body: byDefault("") },
  { name: "default 100 KB", body: byDefault(BIG) },
  { name: "default unknown", body: byDefault(UNKNOWN_UUID) },
  { name: "default by slug", body: byDefault("fuzz") },
  { name: "default true", body: byDefault(true) },
];

const records = (list: unknown) => () => ({ records: list });
const RECORDS_FIELDS: Case[] = [
  { name: "records a string", body: records("abcde-12345") },
  { name: "records a number", body: records(5) },
  { name: "records null", body: records(null) },
  { name: "records an object", body: records({ id: UNKNOWN_RECORD }) },
  { name: "records empty", body: records([]) },
  { name: "11 records", body: (f) => ({ records: eleven((i) => ({ id: i === 0 ? f.record : `zzzzz-${String(i).padStart(5, "0")}` })) }) },
  { name: "a duplicated record", body: (f) => ({ records: [{ id: f.record }, { id: f.record }] }) },
  { name: "entries numbers", body: records([1]) },
  { name: "entries strings", body: (f) => ({ records: [f.record] }) },
  { name: "an entry null", body: records([null]) },
  { name: "an entry without id", body: records([{}]) },
  { name: "id a number", body: records([{ id: 5 }]) },
  { name: "id null", body: records([{ id: null }]) },
  { name: "id a list", body: records([{ id: [UNKNOWN_RECORD] }]) },
  { name: "id 100 KB", body: records([{ id: BIG }]) },
  { name: "id unknown", body: records([{ id: UNKNOWN_RECORD }]) },
  { name: "id of a draft", body: (f) => ({ records: [{ id: f.draft }] }) },
];

const QUERIES: Case[] = [
  { name: "membership not a boolean", query: "membership=maybe" },
  { name: "membership 100 KB", query: `membership=${BIG}` },
  { name: "size not a number", query: "size=abc" },
  { name: "size negative", query: "size=-1" },
  { name: "size huge", query: "size=100000000" },
  { name: "page zero", query: "page=0" },
  { name: "page past the window", query: "page=100000&size=1000" },
  { name: "sort unknown", query: "sort=nope" },
  { name: "q unbalanced", query: "q=(((%22" },
  { name: "q 100 KB", query: `q=${BIG}` },
  { name: "11 repeated parameters", query: eleven((i) => `membership=${i % 2 === 0}`).join("&") },
];

interface Route {
  method: string;
  /** The path with `{id}` for the record (or community) id. */
  path: string;
  /** Which fixture id goes in the path. */
  idOf: (f: Fixture) => string;
  cases: (f: Fixture) => Case[];
}

const ROUTES: Route[] = [
  {
    method: "PUT",
    path: "/api/records/{id}/draft/review",
    idOf: (f) => f.draft,
    cases: (f) => [...GENERIC, ...REVIEW_FIELDS, ...recordIds(f), { name: "a published record without a draft", id: f.record }],
  },
  { method: "GET", path: "/api/records/{id}/draft/review", idOf: (f) => f.draft, cases: (f) => [...recordIds(f), { name: "a published record without a draft", id: f.record }] },
  { method: "DELETE", path: "/api/records/{id}/draft/review", idOf: (f) => f.draft, cases: (f) => [...GENERIC, ...recordIds(f)] },
  {
    method: "POST",
    path: "/api/records/{id}/draft/actions/submit-review",
    idOf: (f) => f.draft,
    cases: (f) => [...GENERIC, ...SUBMIT_FIELDS, ...recordIds(f), { name: "a published record without a draft", id: f.record }],
  },
  {
    method: "POST",
    path: "/api/records/{id}/communities",
    idOf: (f) => f.record,
    cases: (f) => [...GENERIC, ...COMMUNITIES_FIELDS, ...recordIds(f), { name: "an unpublished draft", id: f.draft }],
  },
  { method: "GET", path: "/api/records/{id}/communities", idOf: (f) => f.record, cases: (f) => [...QUERIES, ...recordIds(f), { name: "an unpublished draft", id: f.draft }] },
  {
    method: "PUT",
    path: "/api/records/{id}/communities",
    idOf: (f) => f.record,
    cases: (f) => [...GENERIC, ...DEFAULT_FIELDS, ...recordIds(f), { name: "an unpublished draft", id: f.draft }],
  },
  {
    method: "DELETE",
    path: "/api/records/{id}/communities",
    idOf: (f) => f.record,
    cases: (f) => [...GENERIC, ...COMMUNITIES_FIELDS, ...recordIds(f), { name: "an unpublished draft", id: f.draft }],
  },
  {
    method: "GET",
    path: "/api/records/{id}/communities-suggestions",
    idOf: (f) => f.record,
    cases: (f) => [...QUERIES, ...recordIds(f).map((c) => ({ ...c, query: "membership=true" })), { name: "an unpublished draft", id: f.draft, query: "membership=true" }],
  },
  {
    method: "DELETE",
    path: "/api/communities/{id}/records",
    idOf: (f) => f.community,
    cases: (f) => [
      ...GENERIC,
      ...RECORDS_FIELDS,
      { name: "an unknown community", id: UNKNOWN_UUID, body: () => ({ records: [{ id: f.record }] }) },
      { name: "an unknown slug", id: "no-such-community", body: () => ({ records: [{ id: f.record }] }) },
      { name: "a 100 KB community id", id: BIG, body: () => ({ records: [{ id: f.record }] }) },
      { name: "a record's id in place of a community's", id: f.record, body: () => ({ records: [{ id: f.record }] }) },
      { name: "an encoded traversal", id: "..%2F..%2Fapi%2Frecords", body: () => ({ records: [{ id: f.record }] }) },
    ],
  },
];

/** What is wrong with the answer, if anything: a 5xx, or a 4xx whose body is not JSON `{status, message}`. */
function problemOf(res: { status: number; json: any; text: string }): string | null {
  if (res.status >= 500) return `${res.status}: ${res.text.slice(0, 300)}`;
  if (res.status >= 400) {
    const body = res.json;
    if (!body || typeof body !== "object" || Array.isArray(body)) return `${res.status} without a JSON object: ${res.text.slice(0, 300)}`;
    if (body.status !== res.status) return `${res.status} with status ${JSON.stringify(body.status)} in the body`;
    if (typeof body.message !== "string" || body.message.length === 0) return `${res.status} without a message: ${res.text.slice(0, 300)}`;
  }
  return null;
}

// Fixtures are made per route before its cases are listed, so that every case is its own test.
const CASE_NAMES: Fixture = { draft: "{draft}", record: "{record}", community: "{community}" };

for (const route of ROUTES) {
  describe(`${route.method} ${route.path}`, () => {
    for (const c of route.cases(CASE_NAMES)) {
      test(`${c.name}: never a 5xx, every 4xx JSON with status and message`, async () => {
        const f = await fixture();
        // The case as listed for this route, with this test's fixture.
        const live = route.cases(f).find((x) => x.name === c.name)!;
        const id = live.id ?? route.idOf(f);
        const path = route.path.replace("{id}", id) + (live.query ? `?${live.query}` : "");
        const problems: string[] = [];
        for (const who of CALLERS) {
          const options: Parameters<CommunitiesTestApp["call"]>[2] = { as: who };
          if (live.body) options.body = live.body(f);
          if (live.raw !== undefined) {
            options.rawBody = live.raw;
            options.headers = { "content-type": live.contentType ?? "application/json" };
          }
          const res = await t.call(route.method, path, options);
          const problem = problemOf(res);
          if (problem) problems.push(`${who}: ${problem}`);
        }
        expect(problems).toEqual([]);
      });
    }
  });
}

describe("the app still answers after the fuzzing", () => {
  test("a fresh draft's review can be read or is a clean 404", async () => {
    const f = await fixture();
    const res = await t.call("GET", `/api/records/${f.draft}/draft/review`, { as: "alice" });
    expect([200, 404]).toContain(res.status);
    expect(problemOf(res)).toBeNull();
    expectStatus(await t.call("GET", `/api/records/${f.record}`), 200);
  });
});
