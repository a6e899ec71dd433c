// Community bodies: every rule of the spec's limits and InvenioRDM's community schema, each with a
// row that passes only because of it; bad input of every kind is a 400, never a 5xx.
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { COMMUNITY_BODY, createCommunitiesTestApp, roleScenarios, type CommunitiesTestApp, type RoleScenario } from "../helpers/communities";

let ctx: CommunitiesTestApp;
const app = () => ctx;
let counter = 0;

beforeAll(async () => {
  ctx = await createCommunitiesTestApp();
  await ctx.makeCommunity("taken");
});
afterAll(() => ctx.close());

type Body = ReturnType<typeof COMMUNITY_BODY>;
/** A valid body of a fresh slug, changed by `edit`. */
const valid = (edit: (b: Body & Record<string, any>) => void = () => {}) => {
  const body = COMMUNITY_BODY(`c-${++counter}`) as Body & Record<string, any>;
  edit(body);
  return body;
};

/** A create that fails on exactly `field` with `message`. */
const fails = (name: string, body: unknown, field: string, message: string | RegExp): RoleScenario => ({
  name,
  method: "POST",
  url: "/api/communities",
  as: "alice",
  body,
  status: 400,
  check: (b) => {
    expect(b.message).toBe("A validation error occurred.");
    expect(b.errors.map((e: any) => e.field)).toEqual([field]);
    expect(b.errors[0].messages[0]).toMatch(message);
  },
});
const passes = (name: string, body: unknown, check?: (b: any) => void): RoleScenario => ({ name, method: "POST", url: "/api/communities", as: "alice", body, status: 201, check });

const MISSING = "Missing data for required field.";
const x = (n: number) => "x".repeat(n);

describe("the spec's error table", () => {
  roleScenarios(app, [
    fails("empty metadata", { ...COMMUNITY_BODY("empty-metadata"), metadata: {} }, "metadata.title", MISSING),
    fails("no metadata", { slug: "no-metadata", access: COMMUNITY_BODY("x").access }, "metadata.title", MISSING),
    {
      name: "an empty body names every required field",
      method: "POST",
      url: "/api/communities",
      as: "alice",
      body: {},
      status: 400,
      json: {
        status: 400,
        errors: [
          { field: "slug", messages: [MISSING] },
          { field: "access", messages: [MISSING] },
          { field: "metadata.title", messages: [MISSING] },
        ],
      },
    },
  ]);
});

describe("slug", () => {
  roleScenarios(app, [
    fails(
      "missing",
      valid((b) => delete (b as any).slug),
      "slug",
      MISSING,
    ),
    fails(
      "blank",
      valid((b) => (b.slug = "  ")),
      "slug",
      "Field cannot be blank or longer than 100 characters.",
    ),
    fails(
      "101 characters",
      valid((b) => (b.slug = x(101))),
      "slug",
      "Field cannot be blank or longer than 100 characters.",
    ),
    passes(
      "100 characters",
      valid((b) => (b.slug = `y${x(99)}`)),
    ),
    fails(
      "a space",
      valid((b) => (b.slug = "a b")),
      "slug",
      "The ID should contain only letters with numbers or dashes.",
    ),
    fails(
      "a slash",
      valid((b) => (b.slug = "a/b")),
      "slug",
      "The ID should contain only letters with numbers or dashes.",
    ),
    fails(
      "non-ASCII letters",
      valid((b) => (b.slug = "ökologie")),
      "slug",
      "The ID should contain only letters with numbers or dashes.",
    ),
    fails(
      "a UUID",
      valid((b) => (b.slug = "2d4b1e60-3c3a-4f0e-9b7e-0b1d6f1a2b3c")),
      "slug",
      "The ID must not be an Universally Unique IDentifier (UUID).",
    ),
    fails(
      "a UUID without hyphens",
      valid((b) => (b.slug = "2d4b1e603c3a4f0e9b7e0b1d6f1a2b3c")),
      "slug",
      /UUID/,
    ),
    passes(
      "31 hex digits is no UUID",
      valid((b) => (b.slug = "2d4b1e603c3a4f0e9b7e0b1d6f1a2b3")),
    ),
    fails(
      "not a string",
      valid((b) => ((b as any).slug = 42)),
      "slug",
      "Not a valid string.",
    ),
    passes(
      "upper case is stored lower case",
      valid((b) => (b.slug = "Under_Score-OK")),
      (body) => expect(body.slug).toBe("under_score-ok"),
    ),
    fails(
      "taken",
      valid((b) => (b.slug = "taken")),
      "slug",
      "A community with this identifier already exists.",
    ),
    fails(
      "taken in another case",
      valid((b) => (b.slug = "TAKEN")),
      "slug",
      "A community with this identifier already exists.",
    ),
    fails(
      "featured would be shadowed by the featured search",
      valid((b) => (b.slug = "Featured")),
      "slug",
      "The ID 'Featured' is reserved.",
    ),
  ]);
});

describe("access", () => {
  roleScenarios(app, [
    fails(
      "missing",
      valid((b) => delete (b as any).access),
      "access",
      MISSING,
    ),
    fails(
      "not an object",
      valid((b) => ((b as any).access = "public")),
      "access",
      "Invalid input type.",
    ),
    fails(
      "no visibility",
      valid((b) => delete (b.access as any).visibility),
      "access.visibility",
      MISSING,
    ),
    fails(
      "another visibility",
      valid((b) => (b.access.visibility = "secret")),
      "access.visibility",
      "Must be one of: public, restricted.",
    ),
    fails(
      "no member_policy",
      valid((b) => delete (b.access as any).member_policy),
      "access.member_policy",
      MISSING,
    ),
    fails(
      "another member_policy",
      valid((b) => (b.access.member_policy = "invite")),
      "access.member_policy",
      "Must be one of: open, closed.",
    ),
    fails(
      "no record_policy",
      valid((b) => delete (b.access as any).record_policy),
      "access.record_policy",
      MISSING,
    ),
    fails(
      "a number as record_policy",
      valid((b) => ((b.access as any).record_policy = 1)),
      "access.record_policy",
      "Must be one of: open, closed.",
    ),
    fails(
      "an unknown access field",
      valid((b) => ((b.access as any).owner = "me")),
      "access.owner",
      "Unknown field.",
    ),
    passes(
      "closed policies",
      valid((b) => Object.assign(b.access, { member_policy: "closed", record_policy: "closed" })),
    ),
  ]);
});

describe("metadata", () => {
  roleScenarios(app, [
    fails(
      "not an object",
      valid((b) => ((b as any).metadata = "x")),
      "metadata",
      "Invalid input type.",
    ),
    fails(
      "title blank",
      valid((b) => (b.metadata.title = "")),
      "metadata.title",
      "Field cannot be blank or longer than 250 characters.",
    ),
    fails(
      "title 251",
      valid((b) => (b.metadata.title = x(251))),
      "metadata.title",
      "Field cannot be blank or longer than 250 characters.",
    ),
    passes(
      "title 250",
      valid((b) => (b.metadata.title = x(250))),
    ),
    fails(
      "title a number",
      valid((b) => ((b.metadata as any).title = 7)),
      "metadata.title",
      "Not a valid string.",
    ),
    fails(
      "description 2001",
      valid((b) => ((b.metadata as any).description = x(2001))),
      "metadata.description",
      "Field cannot be blank or longer than 2000 characters.",
    ),
    passes(
      "description 2000",
      valid((b) => ((b.metadata as any).description = x(2000))),
    ),
    fails(
      "curation_policy 2001",
      valid((b) => ((b.metadata as any).curation_policy = x(2001))),
      "metadata.curation_policy",
      /2000/,
    ),
    passes(
      "curation_policy is sanitised HTML, measured after sanitising",
      valid((b) => ((b.metadata as any).curation_policy = `<p onclick="x()">${x(1990)}</p><script>alert(1)</script>`)),
      (body) => expect(body.metadata.curation_policy).toBe(`<p>${x(1990)}</p>`),
    ),
    fails(
      "page 2001",
      valid((b) => ((b.metadata as any).page = x(2001))),
      "metadata.page",
      /2000/,
    ),
    passes(
      "type as {id}",
      valid((b) => ((b.metadata as any).type = { id: "project", title: { en: "ignored" } })),
      (body) => expect(body.metadata.type).toEqual({ id: "project", title: { en: "Project" } }),
    ),
    passes(
      "type as a plain string (the rename example)",
      valid((b) => ((b.metadata as any).type = "topic")),
      (body) => expect(body.metadata.type).toEqual({ id: "topic", title: { en: "Topic" } }),
    ),
    fails(
      "an unknown type id",
      valid((b) => ((b.metadata as any).type = { id: "club" })),
      "metadata.type.id",
      "Invalid value club.",
    ),
    fails(
      "an unknown type string",
      valid((b) => ((b.metadata as any).type = "club")),
      "metadata.type",
      "Invalid value club.",
    ),
    fails(
      "a type without id",
      valid((b) => ((b.metadata as any).type = {})),
      "metadata.type.id",
      MISSING,
    ),
    passes(
      "website",
      valid((b) => ((b.metadata as any).website = "https://ocean.example.org/lab")),
    ),
    fails(
      "website not a URL",
      valid((b) => ((b.metadata as any).website = "ocean lab")),
      "metadata.website",
      "Not a valid URL.",
    ),
    fails(
      "website javascript:",
      valid((b) => ((b.metadata as any).website = "javascript:alert(1)")),
      "metadata.website",
      "Not a valid URL.",
    ),
    passes(
      "organizations by ROR id or name",
      valid((b) => ((b.metadata as any).organizations = [{ id: "https://ror.org/05a28rw58" }, { name: "Ocean Lab" }])),
      (body) => expect(body.metadata.organizations).toEqual([{ id: "05a28rw58" }, { name: "Ocean Lab" }]),
    ),
    fails(
      "an organization id that is no ROR id",
      valid((b) => ((b.metadata as any).organizations = [{ id: "ocean" }])),
      "metadata.organizations.0.id",
      "Invalid value ocean.",
    ),
    fails(
      "an organization of nothing",
      valid((b) => ((b.metadata as any).organizations = [{}])),
      "metadata.organizations.0",
      "An existing id or a free text name must be present.",
    ),
    fails(
      "organizations not a list",
      valid((b) => ((b.metadata as any).organizations = { name: "x" })),
      "metadata.organizations",
      "Not a valid list.",
    ),
    fails(
      "an unknown metadata field",
      valid((b) => ((b.metadata as any).colour = "blue")),
      "metadata.colour",
      "Unknown field.",
    ),
    passes(
      "unknown top-level keys are ignored (a read sent back)",
      valid((b) => Object.assign(b, { id: "x", links: {}, revision_id: 9, created: "then" })),
    ),
  ]);
});

describe("bad input is a 4xx, never a 5xx", () => {
  const post = (name: string, extra: Partial<RoleScenario>, status = 400): RoleScenario => ({ name, method: "POST", url: "/api/communities", as: "alice", status, ...extra });
  roleScenarios(app, [
    post("invalid JSON", { rawBody: '{"slug": ', headers: { "content-type": "application/json" } }),
    post("a list", { body: [COMMUNITY_BODY("a-list")] }),
    post("a string", { rawBody: '"community"', headers: { "content-type": "application/json" } }),
    post("null", { rawBody: "null", headers: { "content-type": "application/json" } }),
    post("not JSON at all", { rawBody: "slug=x", headers: { "content-type": "text/plain" } }, 415),
    post("deeply nested metadata", { body: { ...COMMUNITY_BODY("deep"), metadata: { title: "x", organizations: [[[[{ name: [] }]]]] } } }),
    post("a huge title", { body: valid((b) => (b.metadata.title = x(100_000))) }),
    post(
      "a body over MAX_CONTENT_LENGTH",
      { rawBody: JSON.stringify(valid((b) => (b.metadata.title = x(11 * 1024 * 1024)))), headers: { "content-type": "application/json" } },
      413,
    ),
  ]);
});
