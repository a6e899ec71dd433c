// The requests API, reading: single requests, `/requests`, `/user/requests` and a community's
// requests for every caller; a caller never meets others' requests in hits, totals or facets.
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { requestScenarios, setUpRequests, type Fixture } from "../helpers/requests-fixture";

let f: Fixture;
beforeAll(async () => (f = await setUpRequests()));
afterAll(() => f.t.close());
const rows = requestScenarios(() => f);

/** The hits are exactly these fixture requests, in this order. */
const hitsAre =
  (...names: string[]) =>
  (body: any) =>
    expect(body.hits.hits.map((h: { id: string }) => f.nameOf(h.id))).toEqual(names);
const buckets = (body: any, facet: string) => Object.fromEntries(body.aggregations[facet].buckets.map((b: any) => [b.key, b.doc_count]));

describe("one request", () => {
  rows([
    {
      name: "the creator reads it, with the actions the creator may run",
      as: "alice",
      method: "GET",
      url: "/api/requests/{open}",
      status: 200,
      check: (body) =>
        expect(body).toEqual({
          id: f.ids.open,
          number: "1",
          type: "test-review",
          title: "Ocean temperature dataset",
          description: "Buoy measurements from 2025",
          status: "submitted",
          is_open: true,
          is_closed: false,
          is_expired: false,
          expires_at: "2026-12-22T12:00:00.000000+00:00",
          created_by: { user: String(f.t.userIds.alice) },
          receiver: { community: f.ocean },
          topic: { record: "abcde-12345" },
          created: "2026-11-22T12:00:00.000000+00:00",
          updated: "2026-11-22T12:00:00.000000+00:00",
          revision_id: 2,
          links: {
            self: `${f.base}/api/requests/${f.ids.open}`,
            self_html: `${f.base}/requests/${f.ids.open}`,
            comments: `${f.base}/api/requests/${f.ids.open}/comments`,
            timeline: `${f.base}/api/requests/${f.ids.open}/timeline`,
            actions: { cancel: `${f.base}/api/requests/${f.ids.open}/actions/cancel` },
          },
        }),
    },
    {
      name: "a curator of the receiving community: accept, decline",
      as: "curator",
      method: "GET",
      url: "/api/requests/{open}",
      status: 200,
      check: (b) => expect(Object.keys(b.links.actions)).toEqual(["accept", "decline"]),
    },
    {
      name: "its manager",
      as: "manager",
      method: "GET",
      url: "/api/requests/{open}",
      status: 200,
      check: (b) => expect(Object.keys(b.links.actions)).toEqual(["accept", "decline"]),
    },
    { name: "its owner", as: "owner", method: "GET", url: "/api/requests/{open}", status: 200 },
    { name: "an administrator reads, with no actions", as: "admin", method: "GET", url: "/api/requests/{open}", status: 200, check: (b) => expect(b.links.actions).toEqual({}) },
    { name: "a reader of the community is no party", as: "reader", method: "GET", url: "/api/requests/{open}", status: 403, json: { status: 403, message: "Permission denied." } },
    { name: "another user", as: "bob", method: "GET", url: "/api/requests/{open}", status: 403 },
    { name: "anonymous", method: "GET", url: "/api/requests/{open}", status: 401, responseHeaders: { "www-authenticate": /^Bearer / } },
    { name: "an invalid token", token: "nope", method: "GET", url: "/api/requests/{open}", status: 401 },
    { name: "the receiver does not see a draft", as: "curator", method: "GET", url: "/api/requests/{draft}", status: 403 },
    { name: "its creator does", as: "alice", method: "GET", url: "/api/requests/{draft}", status: 200, check: (b) => expect(Object.keys(b.links.actions)).toEqual(["submit"]) },
    {
      name: "a closed request has no actions",
      as: "alice",
      method: "GET",
      url: "/api/requests/{declined}",
      status: 200,
      json: { status: "declined", is_open: false, is_closed: true, links: { actions: {} } },
    },
    {
      name: "a community creator's managers cancel",
      as: "manager",
      method: "GET",
      url: "/api/requests/{invite}",
      status: 200,
      check: (b) => expect(Object.keys(b.links.actions)).toEqual(["cancel"]),
    },
    {
      name: "a curator reads but may not cancel (the type asks for managers)",
      as: "curator",
      method: "GET",
      url: "/api/requests/{invite}",
      status: 200,
      json: { links: { actions: {} } },
    },
    {
      name: "the invited user answers",
      as: "carol",
      method: "GET",
      url: "/api/requests/{invite}",
      status: 200,
      check: (b) => expect(Object.keys(b.links.actions)).toEqual(["accept", "decline"]),
    },
    { name: "an unknown id", as: "alice", method: "GET", url: "/api/requests/00000000-0000-4000-8000-000000000000", status: 404, json: { status: 404 } },
    { name: "not a UUID", as: "alice", method: "GET", url: "/api/requests/1", status: 404 },
    { name: "prettyprint", as: "alice", method: "GET", url: "/api/requests/{open}?prettyprint=1", status: 200, check: (_b, text) => expect(text).toContain('\n  "id"') },
  ]);
});

describe("GET /api/requests: only what the caller may read, in hits, totals and facets", () => {
  rows([
    {
      name: "the creator: own requests, newest first",
      as: "alice",
      method: "GET",
      url: "/api/requests",
      status: 200,
      json: { hits: { total: 4 }, sortBy: "newest", links: { self: "{base}/api/requests?sort=newest&page=1&size=10" } },
      check: (b) => {
        hitsAre("declined", "plain", "draft", "open")(b);
        expect(b.aggregations.type).toEqual({
          label: "Type",
          buckets: [
            { key: "test-review", doc_count: 3, label: "Test review", is_selected: false },
            { key: "test-plain", doc_count: 1, label: "Test plain", is_selected: false },
          ],
        });
        expect(buckets(b, "status")).toEqual({ submitted: 2, created: 1, declined: 1 });
      },
    },
    {
      name: "bob: received and created, nothing else, even in the facets",
      as: "bob",
      method: "GET",
      url: "/api/requests",
      status: 200,
      json: { hits: { total: 2 } },
      check: (b) => {
        hitsAre("river", "plain")(b);
        expect(buckets(b, "type")).toEqual({ "test-review": 1, "test-plain": 1 });
        expect(buckets(b, "status")).toEqual({ submitted: 2 });
      },
    },
    { name: "carol: an invitation received and a community she curates", as: "carol", method: "GET", url: "/api/requests", status: 200, check: hitsAre("river", "invite") },
    { name: "a curator: the community's requests, not its drafts", as: "curator", method: "GET", url: "/api/requests", status: 200, check: hitsAre("declined", "invite", "open") },
    {
      name: "a reader: none",
      as: "reader",
      method: "GET",
      url: "/api/requests",
      status: 200,
      json: { hits: { hits: [], total: 0 } },
      check: (b) => expect(b.aggregations.type.buckets).toEqual([]),
    },
    { name: "an administrator: all", as: "admin", method: "GET", url: "/api/requests", status: 200, json: { hits: { total: 6 } } },
    { name: "anonymous", method: "GET", url: "/api/requests", status: 401 },
    {
      name: "/user/requests of an administrator: only their own",
      as: "admin",
      method: "GET",
      url: "/api/user/requests",
      status: 200,
      json: { hits: { total: 0 }, links: { self: "{base}/api/user/requests?sort=newest&page=1&size=10" } },
    },
    { name: "/user/requests of a creator", as: "alice", method: "GET", url: "/api/user/requests", status: 200, check: hitsAre("declined", "plain", "draft", "open") },
    { name: "/user/requests anonymous", method: "GET", url: "/api/user/requests", status: 401 },
  ]);
});

describe("listing filters, sorts and paging", () => {
  const alice = (name: string, query: string, ...names: string[]) => ({
    name,
    as: "alice" as const,
    method: "GET",
    url: `/api/requests?${query}`,
    status: 200,
    check: hitsAre(...names),
  });
  rows([
    {
      ...alice("type: facet counts ignore the selection, which is marked", "type=test-plain", "plain"),
      json: { hits: { total: 1 }, links: { self: "{base}/api/requests?type=test-plain&sort=newest&page=1&size=10" } },
      check: (b) => {
        hitsAre("plain")(b);
        expect(b.aggregations.type.buckets.map((x: any) => [x.key, x.doc_count, x.is_selected])).toEqual([
          ["test-review", 3, false],
          ["test-plain", 1, true],
        ]);
      },
    },
    alice("status values are OR-ed", "status=submitted&status=declined", "declined", "plain", "open"),
    alice("facets are AND-ed", "status=submitted&type=test-review", "open"),
    alice("is_open=true", "is_open=true", "plain", "open"),
    alice("is_open=false", "is_open=false", "declined", "draft"),
    alice("created_by", "created_by=user:{alice}", "declined", "plain", "draft", "open"),
    alice("receiver, a user", "receiver=user:{bob}", "plain"),
    alice("receiver, a community", "receiver=community:{ocean}", "declined", "draft", "open"),
    alice("topic", "topic=record:abcde-12345", "open"),
    { ...alice("q over titles: bestmatch by default", "q=ocean", "declined", "open"), json: { sortBy: "bestmatch" } },
    alice("q over descriptions", "q=buoy", "open"),
    alice("q words are AND-ed", "q=ocean%20temperature", "open"),
    alice("q with sort=oldest", "q=ocean&sort=oldest", "open", "declined"),
    { ...alice("bestmatch without q is the default sort", "sort=bestmatch", "declined", "plain", "draft", "open"), json: { sortBy: "newest" } },
    alice("oldest", "sort=oldest", "open", "draft", "plain", "declined"),
    {
      ...alice("a page of two", "size=2", "declined", "plain"),
      json: { hits: { total: 4 }, links: { self: "{base}/api/requests?sort=newest&page=1&size=2", next: "{base}/api/requests?sort=newest&page=2&size=2" } },
    },
    { ...alice("the second page", "size=2&page=2", "draft", "open"), json: { links: { prev: "{base}/api/requests?sort=newest&page=1&size=2" } } },
    {
      name: "an unknown sort",
      as: "alice",
      method: "GET",
      url: "/api/requests?sort=name",
      status: 400,
      json: { message: "Invalid querystring parameters.", errors: [{ field: "sort" }] },
    },
    { name: "an unknown status", as: "alice", method: "GET", url: "/api/requests?status=open", status: 400, json: { errors: [{ field: "status" }] } },
    {
      name: "is_open not a boolean",
      as: "alice",
      method: "GET",
      url: "/api/requests?is_open=maybe",
      status: 400,
      json: { errors: [{ field: "is_open", messages: ["Must be true or false."] }] },
    },
    { name: "a party without a kind", as: "alice", method: "GET", url: "/api/requests?created_by=3", status: 400, json: { errors: [{ field: "created_by" }] } },
    { name: "size 0", as: "alice", method: "GET", url: "/api/requests?size=0", status: 400, json: { message: "Invalid pagination parameters." } },
    { name: "a page beyond the window", as: "alice", method: "GET", url: "/api/requests?size=100&page=101", status: 400 },
  ]);
});

describe("GET /api/communities/{id}/requests: the inbox, for curators and up", () => {
  rows([
    { name: "a curator, by slug", as: "curator", method: "GET", url: "/api/communities/ocean/requests", status: 200, check: hitsAre("declined", "open") },
    { name: "a manager, by id", as: "manager", method: "GET", url: "/api/communities/{ocean}/requests", status: 200, check: hitsAre("declined", "open") },
    {
      name: "links keep the path asked for",
      as: "owner",
      method: "GET",
      url: "/api/communities/ocean/requests?status=submitted",
      status: 200,
      json: { links: { self: "{base}/api/communities/ocean/requests?status=submitted&sort=newest&page=1&size=10" } },
    },
    {
      name: "an administrator also sees drafts addressed to it",
      as: "admin",
      method: "GET",
      url: "/api/communities/ocean/requests",
      status: 200,
      check: hitsAre("declined", "draft", "open"),
    },
    { name: "a reader", as: "reader", method: "GET", url: "/api/communities/ocean/requests", status: 403 },
    { name: "a creator who is no member", as: "alice", method: "GET", url: "/api/communities/ocean/requests", status: 403 },
    { name: "another community's curator", as: "carol", method: "GET", url: "/api/communities/ocean/requests", status: 403 },
    { name: "carol curates river", as: "carol", method: "GET", url: "/api/communities/river/requests", status: 200, check: hitsAre("river") },
    { name: "a restricted community, to an outsider", as: "bob", method: "GET", url: "/api/communities/hidden/requests", status: 404 },
    { name: "a restricted community, to its reader", as: "reader", method: "GET", url: "/api/communities/hidden/requests", status: 403 },
    { name: "an unknown community", as: "curator", method: "GET", url: "/api/communities/nowhere/requests", status: 404 },
    { name: "anonymous", method: "GET", url: "/api/communities/ocean/requests", status: 401 },
  ]);
});
