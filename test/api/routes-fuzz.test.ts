// Every route of the OpenAPI document fed bad input, as anonymous, as a user and as an
// administrator: bad ids, Object.prototype's member names as query parameters and JSON keys, wrong
// types for each body field, huge numbers, empty strings, unicode, invalid JSON, lists where
// objects belong. Nothing a client sends may answer a 5xx. A fixed seed picks the inputs, so a
// failure is reproduced by running the file again.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type CallOptions, type TestApp, type Who } from "../helpers/app";
import { RICH_CUSTOM_FIELDS, RICH_METADATA } from "../helpers/export-samples";
import { createDraft } from "../helpers/records";
import { createRouteFixture, documentedRoutes, fillPath, type DocumentedRoute, type RouteFixture } from "../helpers/route-fixture";

const SEED = 0x2811;
const PROTOTYPE_NAMES = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "isPrototypeOf", "__defineGetter__"];

/** mulberry32: a small seeded generator (the same picks on every run). */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[], count: number): T[] => {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length) out.push(pool.splice(Math.floor(next() * pool.length), 1)[0]!);
    return out;
  };
  return { next, pick };
}

const BAD_IDS = [
  "0",
  "-1",
  "99999999999999999999999",
  "1e308",
  "NaN",
  "null",
  "%00",
  "%25",
  "%E2%82",
  "..%2F..%2Fetc",
  encodeURIComponent("💥ünïcødé"),
  "x".repeat(300),
  "' OR 1=1 --",
  ...PROTOTYPE_NAMES,
].map((id) => id.replace(/ /g, "%20").replace(/'/g, "%27"));

/** Values of the wrong type (or out of range) for any field. */
const BAD_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  "",
  " ",
  "💥\u0000\u202e",
  "x".repeat(5000),
  [],
  [null],
  [{}],
  {},
  { __proto__: null, constructor: 1 },
  { id: {} },
  "constructor",
  "__proto__",
];

/** Field names worth trying where the document names none: what the API's bodies hold. */
const COMMON_FIELDS = [
  "metadata",
  "access",
  "files",
  "slug",
  "payload",
  "receiver",
  "type",
  "grants",
  "permission",
  "members",
  "role",
  "visible",
  "start_date",
  "name",
  "spec",
  "search_pattern",
  "title",
  "description",
  "message",
  "expires_at",
  "email",
  "key",
  "subject",
  "id",
  "pids",
  "custom_fields",
  "entries",
  "events",
];

/** Raw bodies: invalid JSON, the wrong top-level types, prototype names as keys, deep nesting. */
const RAW_BODIES = [
  "{bad",
  "",
  "null",
  "1",
  '"text"',
  "[]",
  "[{}]",
  '{"__proto__": {"admin": true, "isAdmin": true}, "constructor": 1}',
  '{"constructor": {"prototype": {"polluted": 1}}, "toString": 1, "valueOf": "x", "hasOwnProperty": null}',
  '{"metadata": {"__proto__": {"title": 1}}, "access": {"constructor": []}}',
  "[".repeat(3000) + "]".repeat(3000),
  '{"a": 1e999999}',
  '{"\\ud800": "\\udfff"}',
];

/** Bodies a route takes (as far as a test knows them), mutated below one node at a time: so the checks past the first level are reached too. */
function validBodies(f: RouteFixture): Record<string, unknown> {
  const draft = { access: { record: "public", files: "public", embargo: { active: false } }, files: { enabled: true }, metadata: RICH_METADATA, custom_fields: RICH_CUSTOM_FIELDS };
  const community = { slug: "fuzzed", access: { visibility: "public", member_policy: "open", record_policy: "open" }, metadata: { title: "Fuzzed", type: { id: "project" } } };
  const members = { members: [{ type: "user", id: "1" }], role: "reader", message: "<p>Join</p>" };
  const comment = { payload: { content: "<p>Hi</p>", format: "html" } };
  return {
    "POST /api/records": draft,
    "PUT /api/records/{id}/draft": draft,
    "POST /api/communities": community,
    "PUT /api/communities/{id}": community,
    "POST /api/records/{id}/access/grants": { grants: [{ subject: { type: "user", id: "1" }, permission: "view", notify: true, message: "m" }] },
    "PATCH /api/records/{id}/access/grants/{grant_id}": { permission: "edit" },
    "PUT /api/records/{id}/access/grants/{grant_id}": { subject: { type: "user", id: "1" }, permission: "edit" },
    "POST /api/records/{id}/access/links": { permission: "view", expires_at: "2027-01-01", description: "d" },
    "PATCH /api/records/{id}/access/links/{link_id}": { permission: "edit", expires_at: "2027-01-01" },
    "PATCH /api/records/{id}/access/users/{subject}": { permission: "edit" },
    "PUT /api/records/{id}/access": { allow_user_requests: true, allow_guest_requests: true, accept_conditions_text: "ok", secret_link_expiration: 30 },
    "POST /api/records/{id}/access/request": { email: "guest@example.org", full_name: "Guest", message: "Please", consent_to_share_personal_data: "true" },
    "POST /api/requests/{id}/comments": comment,
    "PUT /api/requests/{id}/comments/{event_id}": comment,
    "POST /api/requests/{id}/actions/{action}": comment,
    "PUT /api/requests/{id}": { title: "t", description: "d" },
    "PUT /api/records/{id}/draft/review": { receiver: { community: f.community }, type: "community-submission" },
    "POST /api/records/{id}/draft/actions/submit-review": comment,
    "POST /api/records/{id}/communities": { communities: [{ id: f.community }] },
    "DELETE /api/records/{id}/communities": { communities: [{ id: f.community }] },
    "DELETE /api/communities/{id}/records": { records: [{ id: f.record }] },
    "POST /api/communities/{id}/members": members,
    "PUT /api/communities/{id}/members": members,
    "DELETE /api/communities/{id}/members": members,
    "POST /api/communities/{id}/invitations": members,
    "PUT /api/communities/{id}/invitations": members,
    "POST /api/communities/{id}/membership-requests": { message: "<p>Let me in</p>" },
    "PUT /api/communities/{id}/membership-requests": members,
    "POST /api/communities/{id}/featured": { start_date: "2026-12-01T00:00:00" },
    "PUT /api/communities/{id}/featured/{featuredId}": { start_date: "2026-12-01T00:00:00" },
    "POST /api/communities/{id}/rename": { slug: "renamed" },
    "POST /api/oaipmh/sets": { name: "n", spec: "s", search_pattern: "title:x", description: "d" },
    "PUT /api/oaipmh/sets/{id}": { name: "n", spec: "s", search_pattern: "title:x" },
    "POST /api/records/{id}/draft/files": [{ key: "b.csv" }, { key: "c.csv", size: 3, checksum: "md5:x" }],
    "POST /api/records/{id}/draft/pids/doi": {},
    "DELETE /api/records/{id}/delete": { removal_reason: { id: "spam" }, note: "n", citation_text: "c", is_visible: true },
    "POST /api/records/{id}/restore": {},
    "POST /api/vocabularies/{type}": { id: "fuzz", title: { en: "Fuzz" }, props: { a: "b" }, tags: ["t"] },
    "PUT /api/vocabularies/{type}/{id}": { id: "eng", title: { en: "English" } },
    "POST /api/subjects": { id: "fuzz", scheme: "x", subject: "Fuzz" },
    "POST /api/names": { given_name: "A", family_name: "B", identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }], affiliations: [{ name: "X" }] },
    "POST /api/affiliations": { id: "fuzzaff", name: "Fuzz", acronym: "F", identifiers: [{ scheme: "ror", identifier: "x" }] },
    "POST /api/funders": { id: "fuzzfund", name: "Fuzz", country: "DK" },
    "POST /api/awards": { id: "fuzzaward", number: "1", title: { en: "A" }, funder: { id: "fuzzfund" } },
    "POST /api/stats": { views: { stat: "record-view", params: { recid: f.record, start_date: "2026-01-01", end_date: "2026-12-31" } } },
  };
}

/** Every node of `value` as a path of keys. */
function pathsOf(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== "object") return [at];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [at, ...keys.flatMap((k) => pathsOf((value as any)[k], [...at, k]))];
}

/** `body` with the node at `path` replaced by `value`, or (with `keys`) given own keys named like Object.prototype's members. */
function mutated(body: unknown, path: (string | number)[], value: unknown, keys = false): unknown {
  const copy = structuredClone(body);
  if (path.length === 0 && !keys) return value;
  let node: any = copy;
  for (const key of path.slice(0, keys ? undefined : -1)) node = node[key];
  if (!keys) node[path.at(-1)!] = value;
  else if (node !== null && typeof node === "object" && !Array.isArray(node)) {
    for (const name of ["__proto__", "constructor", "toString"]) Object.defineProperty(node, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

let t: TestApp;
let fixture: RouteFixture;
let routes: DocumentedRoute[];
beforeAll(async () => {
  t = await createTestApp({ SEARCH_READERS: 1 });
  fixture = await createRouteFixture(t);
  // Deletions last: the fixture's things exist for every other request.
  routes = (await documentedRoutes(t)).sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
});
afterAll(() => t.close());

interface Probe extends CallOptions {
  method: string;
  url: string;
}

const takesBody = (method: string) => method !== "GET" && method !== "HEAD";
const json = { "content-type": "application/json" };

/** The field names a route's body schema gives, or the common ones. */
function fieldsOf(route: DocumentedRoute): string[] {
  const schema = route.body?.type === "array" ? route.body.items : route.body;
  const named = Object.keys(schema?.properties ?? {});
  return named.length ? named : COMMON_FIELDS;
}

function probesFor(route: DocumentedRoute, random: ReturnType<typeof seeded>, valid: Record<string, unknown>): Probe[] {
  const { method } = route;
  const url = fillPath(route.path, fixture);
  const probes: Probe[] = [];
  const withBody = (probe: Probe): Probe => (takesBody(method) && probe.body === undefined && probe.rawBody === undefined ? { ...probe, body: {} } : probe);
  // Each placeholder bad in turn, the others filled in, so a bad action or subject is reached past its record or request.
  const placeholders = route.path.match(/\{\w+\}/g) ?? [];
  for (const placeholder of placeholders) {
    const bads = placeholders.length > 1 || placeholder !== "{id}" ? [...PROTOTYPE_NAMES, "%E2%82", ...random.pick(BAD_IDS, 3)] : ["%E2%82", ...random.pick(BAD_IDS, 4)];
    for (const bad of bads) probes.push(withBody({ method, url: fillPath(route.path.replace(placeholder, `\u0000${bad}\u0000`), fixture).replace(/\u0000(.*?)\u0000/, "$1") }));
  }
  if (route.path.includes("*")) {
    for (const bad of random.pick(BAD_IDS, 3)) probes.push(withBody({ method, url: fillPath(route.path, fixture).replace(/\/[^/]*\/content$|\/[^/]*$/, `/${bad}`) }));
  }
  const names = random.pick(PROTOTYPE_NAMES, 3);
  probes.push(withBody({ method, url: `${url}?${names.map((n) => `${n}=1&${n}=2`).join("&")}` }));
  const params = [...new Set([...route.query, "q", "sort", "page", "size"])];
  probes.push(withBody({ method, url: `${url}?${params.map((p) => `${p}=${random.pick(PROTOTYPE_NAMES, 1)[0]}`).join("&")}` }));
  probes.push(withBody({ method, url: `${url}?page=99999999999999999999&size=-1&q=${encodeURIComponent("💥 AND (")}&sort=` }));
  if (takesBody(method)) {
    for (const raw of random.pick(RAW_BODIES, 6)) probes.push({ method, url, rawBody: raw, headers: json });
    probes.push({ method, url, rawBody: "constructor=1&__proto__=x&toString=&csrf=1", headers: { "content-type": "application/x-www-form-urlencoded" } });
    for (const field of random.pick(fieldsOf(route), 6)) {
      for (const value of random.pick(BAD_VALUES, 3)) probes.push({ method, url, body: { [field]: value } });
      // As a list's item, for routes whose body is a list (files, members).
      probes.push({ method, url, body: [{ [field]: random.pick(BAD_VALUES, 1)[0] }] });
    }
    const body = valid[`${method} ${route.path}`];
    if (body !== undefined) {
      const paths = pathsOf(body);
      for (const path of random.pick(paths, 14)) probes.push({ method, url, body: mutated(body, path, random.pick(BAD_VALUES, 1)[0]) });
      // Every object of the body given keys named like Object.prototype's members.
      const objects = paths.filter((path) => {
        const node = path.reduce((n: any, key) => n[key], body);
        return node !== null && typeof node === "object" && !Array.isArray(node);
      });
      for (const path of objects) probes.push({ method, url, body: mutated(body, path, { admin: true, polluted: 1 }, true) });
      // A text naming a member of Object.prototype where the API looks a name up (a statistic, a scheme, a role, a type).
      const texts = paths.filter((path) => typeof path.reduce((node: any, key) => node[key], body) === "string");
      for (const path of random.pick(texts, 6)) probes.push({ method, url, body: mutated(body, path, random.pick(PROTOTYPE_NAMES, 1)[0]) });
    }
  }
  return probes;
}

const CALLERS: Who[] = ["anonymous", "alice", "admin"];

test("no route answers a 5xx to bad input, from anybody", async () => {
  const random = seeded(SEED);
  const valid = validBodies(fixture);
  const documented = new Set(routes.map((r) => `${r.method} ${r.path}`));
  expect(Object.keys(valid).filter((key) => !documented.has(key))).toEqual([]);
  const failures: string[] = [];
  let sent = 0;
  for (const route of routes) {
    for (const probe of probesFor(route, random, valid)) {
      // Anonymous and a user for every probe; an administrator, who gets past more checks, for one in three.
      const callers = random.next() < 1 / 3 ? CALLERS : CALLERS.slice(0, 2);
      for (const as of callers) {
        const { method, url, ...options } = probe;
        const res = await t.call(method, url, { ...options, as });
        sent++;
        if (res.status >= 500) {
          const body = options.rawBody !== undefined ? String(options.rawBody).slice(0, 80) : JSON.stringify(options.body)?.slice(0, 80);
          failures.push(`${as} ${method} ${url.slice(0, 160)} ${body ?? ""} -> ${res.status} ${res.text.slice(0, 100)}`);
        }
      }
    }
  }
  // The server's own account of the first 5xx (its log holds the error and stack), shown beside the list.
  if (failures.length)
    console.error(
      `first failure: ${failures[0]}\n${t.logs
        .filter((line) => /error/i.test(line))
        .slice(0, 3)
        .join("\n")}`,
    );
  expect(failures).toEqual([]);
  expect(sent).toBeGreaterThan(3000);
});

// What the fuzz found, as exact answers.
test("a member of Object.prototype is no known name: statistic, custom field", async () => {
  // A draft of its own: the fuzz above may have published or deleted the fixture's.
  const { id } = await createDraft(t);
  for (const name of PROTOTYPE_NAMES) {
    const stats = await t.call("POST", "/api/stats", { body: { v: { stat: name, params: { undefined: "x", recid: fixture.record } } } });
    expect({ status: stats.status, field: stats.json.errors?.[0]?.field }).toEqual({ status: 400, field: "v.stat" });
    expect(stats.json.errors[0].messages[0]).toStartWith(`Unknown statistic '${name}'.`);
    const body = { metadata: { title: "x" }, custom_fields: JSON.parse(`{"${name}": {"title": "x"}}`) };
    const draft = await t.call("PUT", `/api/records/${id}/draft`, { as: "alice", body });
    expect(draft.status).toBe(200);
    expect(draft.json.errors).toContainEqual({ field: `custom_fields.${name}`, messages: ["Unknown field."] });
  }
});

test("a path segment that is not percent-encoded UTF-8 is a 400", async () => {
  const res = await t.call("GET", `/api/records/${fixture.record}/access/links/%E2%82`, { as: "alice" });
  expect({ status: res.status, json: res.json }).toEqual({ status: 400, json: { status: 400, message: "The URL's path is not valid percent-encoded UTF-8." } });
});
