// Tests that walk every route of the OpenAPI document (/api/docs/json): a fixture with one thing of
// each kind a path names (a published record with a file, a draft with a file, a community, a
// request with a comment, grants, links, a group, an OAI set), and the document's routes with
// their placeholders filled in from it.
import { expect } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { expectStatus, type TestApp } from "./app";
import { createDraft, publishableDraft, publishRecord } from "./records";

export const FILE_KEY = "data.csv";

export interface RouteFixture {
  record: string;
  draft: string;
  community: string;
  slug: string;
  featured: string;
  request: string;
  comment: string;
  grant: string;
  link: string;
  group: string;
  user: string;
  /** An account of its own for the administrators' actions (block, deactivate…): walking them must not lock alice out. */
  moderated: string;
  set: string;
}

/** One of each thing the API's paths name, made through the API as alice (bob asks to join her community). */
export async function createRouteFixture(t: TestApp): Promise<RouteFixture> {
  const body = publishableDraft({ files: { enabled: true } });
  const record = (await publishRecord(t, body, { files: [[FILE_KEY, "a,b\n1,2\n"]] })).id as string;
  const draft = (await createDraft(t, body, { files: [[FILE_KEY, "a,b\n3,4\n"]] })).id as string;
  const slug = "route-fixture";
  const created = await t.call("POST", "/api/communities", {
    as: "alice",
    body: { slug, access: { visibility: "public", member_policy: "open", record_policy: "open" }, metadata: { title: "Route fixture" } },
  });
  expectStatus(created, 201);
  const community = created.json.id as string;
  const featured = await t.call("POST", `/api/communities/${community}/featured`, { as: "admin", body: { start_date: "2026-01-01T00:00:00" } });
  expectStatus(featured, 201);
  const asked = await t.call("POST", `/api/communities/${community}/membership-requests`, { as: "bob", body: { message: "Let me in" } });
  expectStatus(asked, 201);
  const request = asked.json.id as string;
  const commented = await t.call("POST", `/api/requests/${request}/comments`, { as: "bob", body: { payload: { content: "<p>Please</p>", format: "html" } } });
  expectStatus(commented, 201);
  const bob = String(t.users.bob.user.id);
  const granted = await t.call("POST", `/api/records/${record}/access/grants`, {
    as: "alice",
    body: { grants: [{ subject: { type: "user", id: bob }, permission: "view" }] },
  });
  expectStatus(granted, 201);
  const linked = await t.call("POST", `/api/records/${record}/access/links`, { as: "alice", body: { permission: "view" } });
  expectStatus(linked, 201);
  const group = await t.services.groups.createGroup(systemActor, { name: "route-fixture-readers", description: "Readers" });
  await t.services.groups.addMember(systemActor, group.id, t.users.alice.user.id);
  const set = await t.call("POST", "/api/oaipmh/sets", { as: "admin", body: { name: "Fixture set", spec: "fixture", search_pattern: "*" } });
  expectStatus(set, 201);
  const moderated = await t.services.users.createUser(systemActor, { email: "route-fixture-moderated@example.org", username: "moderated" });
  return {
    record,
    draft,
    community,
    slug,
    featured: String(featured.json.id),
    request,
    comment: String(commented.json.id),
    grant: "0",
    link: String(linked.json.id),
    group: String(group.id),
    user: String(t.users.alice.user.id),
    moderated: String(moderated.id),
    set: String(set.json.id),
  };
}

export interface DocumentedRoute {
  method: string;
  /** The document's path, `{name}` placeholders and all. */
  path: string;
  /** The query parameters the document names. */
  query: string[];
  /** The request body's JSON schema, when the document gives one. */
  body?: any;
}

/** Every method and path of the app's OpenAPI document. */
export async function documentedRoutes(t: TestApp): Promise<DocumentedRoute[]> {
  const doc = await t.call("GET", "/api/docs/json");
  expect(doc.status).toBe(200);
  const routes: DocumentedRoute[] = [];
  for (const [path, operations] of Object.entries(doc.json.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(operations)) {
      const query = ((op.parameters ?? []) as { in: string; name: string }[]).filter((p) => p.in === "query").map((p) => p.name);
      routes.push({ method: method.toUpperCase(), path, query, body: op.requestBody?.content?.["application/json"]?.schema });
    }
  }
  expect(routes.length).toBeGreaterThan(150);
  return routes;
}

/** `path` with its placeholders taken from `f`: ids of things that exist, so routes answer past their lookups. */
export function fillPath(path: string, f: RouteFixture): string {
  const draftPath = /^\/api\/records\/\{id\}\/draft/.test(path) || path.startsWith("/uploads/");
  const values: Record<string, string> = {
    type: "languages",
    featuredId: f.featured,
    grant_id: f.grant,
    link_id: f.link,
    event_id: f.comment,
    action: "accept",
    format: "json",
    slug: f.slug,
    subject: f.user,
    // IIIF names a record as `record:{id}` (the fixture's record has a CSV, so no canvases: a 404 for its canvas).
    uuid: `record:${f.record}`,
  };
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name !== "id") return values[name] ?? "x";
    if (path.startsWith("/api/records/") || path.startsWith("/records/") || path.startsWith("/uploads/")) return draftPath ? f.draft : f.record;
    if (path.startsWith("/api/communities/")) return f.community;
    if (path.startsWith("/api/requests/") || path.startsWith("/me/requests/") || path.startsWith("/requests/")) return f.request;
    if (path.startsWith("/api/groups/")) return f.group;
    if (/^\/api\/users\/\{id\}\/(block|restore|approve|activate|deactivate)$/.test(path)) return f.moderated;
    if (path.startsWith("/api/users/")) return f.user;
    if (path.startsWith("/api/oaipmh/sets/")) return f.set;
    if (path.startsWith("/api/vocabularies/")) return "eng";
    if (path.startsWith("/account/")) return "1";
    return "x";
  });
  if (filled.endsWith("/files/*")) return filled.replace(/\*$/, `${FILE_KEY}/content`);
  if (filled.endsWith("/preview/*") || filled.endsWith("/canvas/*")) return filled.replace(/\*$/, FILE_KEY);
  if (filled === "/static/*") return "/static/missing.css";
  return filled;
}
