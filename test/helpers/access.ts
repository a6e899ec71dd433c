// A test app for sharing records: alice owns, and a cast of users is given each grant level (or a
// group); records are made restricted with a restricted file, so every read shows who may see it.
import { expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { DAY_MS } from "../../src/core/time";
import { createTestApp, expectStatus, type CallOptions } from "./app";
import { createDraft, publishableDraft, publishDraft } from "./records";
import type { Scenario } from "./scenarios";

/** Who calls: the app's users, one grantee per permission, a group member, a stranger (carol) and anonymous. */
export type Caller = "anonymous" | "admin" | "alice" | "bob" | "manager" | "editor" | "previewer" | "viewer" | "grouped" | "carol";

const EXTRA = ["manager", "editor", "previewer", "viewer", "grouped", "carol"] as const;

/** The six callers every route's table covers. */
export const CALLERS: Caller[] = ["alice", "manager", "viewer", "bob", "anonymous", "admin"];

export const FILE_KEY = "data.csv";
export const FILE_CONTENT = "a,b\n1,2\n";

/** A restricted record with a restricted file (published by alice unless `as`). */
export const restrictedDraft = () => publishableDraft({ access: { record: "restricted", files: "restricted" }, files: { enabled: true } });

export async function createAccessTestApp() {
  const ctx = await createTestApp();
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = { admin: String(ctx.users.admin.user.id), alice: String(ctx.users.alice.user.id), bob: String(ctx.users.bob.user.id) };
  for (const name of EXTRA) {
    const user = await ctx.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, password: `${name}-password` });
    tokens[name] = (await ctx.services.tokens.createToken(systemActor, { userId: user.id, name: `${name}-token` })).secret;
    ids[name] = String(user.id);
  }
  const group = await ctx.services.groups.createGroup(systemActor, { name: "Lab", description: "The lab" });
  await ctx.services.groups.addMember(systemActor, group.id, Number(ids.grouped));

  function call(method: string, path: string, options: Omit<CallOptions, "as"> & { as?: Caller } = {}) {
    const { as, ...rest } = options;
    if (as && tokens[as]) return ctx.call(method, path, { ...rest, token: tokens[as] });
    return ctx.call(method, path, { ...rest, as: as as CallOptions["as"] });
  }

  /** Alice's published restricted record with one restricted file; returns its id. */
  async function restrictedRecord(as: Caller = "alice"): Promise<string> {
    const owner = as as "alice";
    const draft = await createDraft(ctx, restrictedDraft(), { as: owner, files: [[FILE_KEY, FILE_CONTENT]] });
    return (await publishDraft(ctx, draft.id, { as: owner })).id;
  }

  /** Grants on `id` as alice: manager manage, editor edit, previewer preview, viewer view, the group preview. */
  async function shareWithCast(id: string) {
    const grants = [
      { subject: { type: "user", id: ids.manager }, permission: "manage" },
      { subject: { type: "user", id: ids.editor }, permission: "edit" },
      { subject: { type: "user", id: ids.previewer }, permission: "preview" },
      { subject: { type: "user", id: ids.viewer }, permission: "view" },
      { subject: { type: "role", id: group.id }, permission: "preview" },
    ];
    const res = await call("POST", `/api/records/${id}/access/grants`, { as: "alice", body: { grants } });
    expectStatus(res, 201);
    return res.json;
  }

  /** A restricted record shared with the cast. */
  async function sharedRecord(): Promise<string> {
    const id = await restrictedRecord();
    await shareWithCast(id);
    return id;
  }

  /** `YYYY-MM-DD` `days` after the test clock's today. */
  const dayAfter = (days: number) => new Date(ctx.clock.now() + days * DAY_MS).toISOString().slice(0, 10);

  return { ...ctx, call, ids, groupId: group.id, restrictedRecord, shareWithCast, sharedRecord, dayAfter };
}

export type AccessTestApp = Awaited<ReturnType<typeof createAccessTestApp>>;

export interface AccessScenario<T = string> extends Omit<Scenario, "as" | "url" | "body"> {
  as?: Caller;
  /** The URL, given what the fixture made (a record id unless told otherwise). */
  url: (f: T) => string;
  /** The body, or a function of the fixture giving it (user ids are known only once the app runs). */
  body?: unknown;
}

/**
 * Scenario tables whose rows each get a fresh fixture (so writes do not interfere); `placeholder`
 * stands for the fixture in the test names.
 */
export function accessScenarios<T = string>(app: () => AccessTestApp, fixture: () => Promise<T>, rows: AccessScenario<T>[], placeholder: T = "{id}" as T) {
  for (const row of rows) {
    test(`${row.name}: ${row.as ?? "anonymous"} ${row.method} ${row.url(placeholder)} -> ${row.status}`, async () => {
      const f = await fixture();
      const body = typeof row.body === "function" ? (row.body as (f: T) => unknown)(f) : row.body;
      const res = await app().call(row.method, row.url(f), { as: row.as, body, headers: row.headers, rawBody: row.rawBody });
      expect({ status: res.status, body: res.json ?? res.text }).toMatchObject({ status: row.status });
      if (row.json !== undefined) expect(res.json).toMatchObject(row.json as object);
      row.check?.(res.json, res.text);
      expectCleanRefusal(res);
    });
  }
}

/** Every 4xx of the API is JSON `{status, message}`; nothing is a 5xx. */
export function expectCleanRefusal(res: { status: number; json: any; text: string }, status?: number) {
  expect(res.status).toBeLessThan(500);
  if (status !== undefined) expect({ status: res.status, body: res.json ?? res.text }).toMatchObject({ status });
  if (res.status >= 400) {
    expect(res.json).toMatchObject({ status: res.status });
    expect(typeof res.json.message).toBe("string");
  }
}
