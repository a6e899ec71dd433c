// Deleting an account (userAdmin.delete, the API's services as the pages and the CLI call them):
// `keep` hands the published records to the placeholder owner ("Deleted user", never listed, never
// signs in), `remove` tombstones them with the reason `spam`; either way the drafts and their files,
// the tokens, sessions and memberships go, the open requests are cancelled and `user.delete` is
// audited with the choice and the counts. Refused without a choice, for oneself, for the only owner
// of a community and for the last active administrator (also block, deactivate, demote by the API).
// The password-reset link an administrator sends, and the sign-in history a password sign-in writes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { systemActor, type Actor } from "../../src/core/actor";
import { HttpError } from "../../src/core/errors";
import { createTestApp, type Caller, type TestApp } from "../helpers/app";
import { COMMUNITY_BODY } from "../helpers/communities";
import { createDraft, publishableDraft, publishRecord } from "../helpers/records";
import { postLogin } from "../helpers/sign-in";
import { uploadFile } from "../helpers/files";

const cli = { via: "cli" as const, address: null };
const web = { via: "web" as const, address: "203.0.113.7" };

let app: TestApp;
let adminActor: Actor;

/** The error a service call throws (status and message), or null when it succeeds. */
async function refusal(work: () => Promise<unknown>): Promise<{ status: number; message: string } | null> {
  try {
    await work();
    return null;
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, message: error.message };
    throw error;
  }
}

/** Calls as the holder of `token` (the records helpers take a caller). */
const holderOf = (token: string): Caller => ({ call: (method, path, options = {}) => app.call(method, path, { ...options, as: undefined, token }) });

/** A new account with a token and `published` records. */
async function spammer(name: string, published: number) {
  const user = await app.services.users.createUser(systemActor, { email: `${name}@example.org`, username: name, password: `${name}-password` });
  const { secret } = await app.services.tokens.createToken(systemActor, { userId: user.id, name: `${name}-token` });
  const records: string[] = [];
  for (let i = 0; i < published; i++) records.push((await publishRecord(holderOf(secret))).id);
  return { id: user.id, token: secret, caller: holderOf(secret), records };
}

/** Files in the file store (the bytes of every stored object). */
function countObjects(): number {
  const walk = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? walk(join(dir, e.name)) : e.name.startsWith(".") ? 0 : 1), 0);
  return walk(join(app.dataDir, "files"));
}

const auditOf = async (action: string) => (await app.services.audit.search(systemActor, { action })).entries;

beforeAll(async () => {
  app = await createTestApp();
  adminActor = { kind: "user", userId: app.users.admin.user.id, isAdmin: true, groupIds: [], scopes: [], tokenId: null };
});
afterAll(() => app.close());

describe("delete a user", () => {
  test("keep: the records stay, owned by the placeholder shown as Deleted user; drafts, files, tokens and the account go", async () => {
    const keeper = await spammer("keeper", 1);
    const user = { id: keeper.id };
    const first = { json: { id: keeper.records[0]! } };
    const draft = { json: await createDraft(keeper.caller, publishableDraft({ files: { enabled: true } })) };
    await uploadFile(keeper.caller, draft.json.id, "data.csv", "a,b\n1,2\n");
    const objectsBefore = countObjects();
    const preview = await app.services.userAdmin.deletePreview(adminActor, user.id);
    expect([preview.records, preview.drafts, preview.soleOwnerOf]).toEqual([1, 1, []]);

    const done = await app.services.userAdmin.delete(adminActor, user.id, { records: "keep" }, web);
    expect(done).toMatchObject({ id: String(user.id), records: "keep", published: 1, drafts: 1 });

    expect(await app.services.users.findUserById(user.id)).toBeNull();
    // The token went with the account (401: it is no token any more).
    expect((await keeper.caller.call("GET", "/api/user/records")).status).toBe(401);
    expect((await app.call("GET", `/api/records/${draft.json.id}/draft`, { as: "admin" })).status).toBe(404);
    // The record still reads, owned by the placeholder, which the directory never lists.
    const record = await app.call("GET", `/api/records/${first.json.id}`);
    expect(record.status).toBe(200);
    const ownerId = Number(record.json.parent.access.owned_by.user);
    expect(ownerId).toBe(done.placeholder);
    const placeholder = await app.call("GET", `/api/users/${ownerId}`, { as: "admin" });
    expect(placeholder.json.profile.full_name).toBe("Deleted user");
    // As any account whose profile others may not see.
    expect((await app.call("GET", `/api/users/${ownerId}`, { as: "alice" })).status).toBe(403);
    expect((await app.call("GET", "/api/users?q=deleted", { as: "alice" })).json.hits.total).toBe(0);
    const all = await app.call("GET", "/api/users/all?size=100", { as: "admin" });
    expect(all.json.hits.hits.map((u: { id: string }) => Number(u.id))).not.toContain(ownerId);
    // Nobody signs in as it, and it takes no action.
    expect((await postLogin(app, "deleted-user@placeholder", "")).session).toBeUndefined();
    expect(await refusal(() => app.services.userAdmin.delete(adminActor, ownerId, { records: "keep" }, web))).toEqual({
      status: 400,
      message: "This is the placeholder owner of deleted users' records: it cannot be changed or deleted.",
    });
    // The draft's file went with it, bytes and all (removed after the commit, without waiting for it).
    for (let i = 0; i < 100 && countObjects() !== objectsBefore - 1; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(countObjects()).toBe(objectsBefore - 1);

    const [entry] = await auditOf("user.delete");
    expect(entry).toMatchObject({ action: "user.delete", targetType: "user", targetId: String(user.id), via: "web", address: "203.0.113.7" });
    expect(entry!.details).toMatchObject({ email: "keeper@example.org", records: "keep", published: 1, drafts: 1, closed_requests: 0 });
  });

  test("remove: the records are tombstoned with the reason spam; the placeholder is made only once", async () => {
    const s = await spammer("spammer", 2);
    const before = await auditOf("user.delete");
    const done = await app.services.userAdmin.delete(systemActor, s.id, { records: "remove" }, cli);
    expect(done).toMatchObject({ records: "remove", published: 2, drafts: 0 });
    expect(done.placeholder).toBe(before[0]!.details.placeholder as number);
    for (const id of s.records) {
      const gone = await app.call("GET", `/api/records/${id}`);
      expect(gone.status).toBe(410);
      expect(gone.json.tombstone.removal_reason.id).toBe("spam");
      expect(gone.json.tombstone.removed_by).toEqual({ user: "system" });
    }
    const [entry] = await auditOf("user.delete");
    expect(entry!.details).toMatchObject({ email: "spammer@example.org", records: "remove", published: 2, drafts: 0 });
    expect(entry!.via).toBe("cli");
  });

  test("the choice is required: no default, and nothing else is accepted", async () => {
    const s = await spammer("undecided", 0);
    for (const records of [undefined, "", "delete", "KEEP"]) {
      const refused = await refusal(() => app.services.userAdmin.delete(adminActor, s.id, { records }, web));
      expect(refused?.status).toBe(400);
    }
    expect(await app.services.users.findUserById(s.id)).not.toBeNull();
  });

  test("the only owner of a community is refused, naming it; a second owner lets the delete through", async () => {
    const s = await spammer("founder", 0);
    const made = await app.call("POST", "/api/communities", { token: s.token, body: COMMUNITY_BODY("founders-club", { title: "Founders' club" }) });
    expect(made.status).toBe(201);
    expect(await refusal(() => app.services.userAdmin.delete(adminActor, s.id, { records: "keep" }, web))).toEqual({
      status: 400,
      message: "founder@example.org is the only owner of Founders' club (founders-club): give each another owner (or delete it) first.",
    });
    expect((await app.services.userAdmin.deletePreview(adminActor, s.id)).soleOwnerOf).toEqual(["Founders' club (founders-club)"]);
    // A group as a second owner (users are invited; groups are added directly).
    const group = await app.services.groups.createGroup(systemActor, { name: "Founders", description: "The club's keepers" });
    const added = await app.call("POST", `/api/communities/${made.json.id}/members`, { as: "admin", body: { members: [{ type: "group", id: "Founders" }], role: "owner" } });
    expect({ status: added.status, body: added.json }).toMatchObject({ status: 204 });
    await app.services.userAdmin.delete(adminActor, s.id, { records: "keep" }, web);
    const members = await app.call("GET", `/api/communities/${made.json.id}/members`, { as: "admin" });
    expect(members.json.hits.hits.map((m: { member: { type: string; id: string }; role: string }) => [m.member.type, m.member.id, m.role])).toEqual([["group", group.id, "owner"]]);
  });

  test("their open requests are cancelled", async () => {
    const s = await spammer("asker", 0);
    const community = await app.call("POST", "/api/communities", { as: "bob", body: COMMUNITY_BODY("askers-target") });
    const draft = await createDraft(s.caller);
    const review = await app.call("PUT", `/api/records/${draft.id}/draft/review`, {
      token: s.token,
      body: { receiver: { community: community.json.id }, type: "community-submission" },
    });
    expect(review.status).toBe(200);
    expect((await app.call("POST", `/api/records/${draft.id}/draft/actions/submit-review`, { token: s.token, body: {} })).status).toBe(202);
    const done = await app.services.userAdmin.delete(adminActor, s.id, { records: "keep" }, web);
    expect(done).toMatchObject({ drafts: 1, closed_requests: 1 });
    const request = await app.call("GET", `/api/requests/${review.json.id}`, { as: "admin" });
    expect(request.json.status).toBe("cancelled");
  });

  test("anyone but an administrator is refused (403), anonymous 401; nothing deleted", async () => {
    const s = await spammer("protected", 0);
    const alice: Actor = { kind: "user", userId: app.users.alice.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
    expect((await refusal(() => app.services.userAdmin.delete(alice, s.id, { records: "remove" }, web)))?.status).toBe(403);
    expect((await refusal(() => app.services.userAdmin.delete({ kind: "anonymous" }, s.id, { records: "remove" }, web)))?.status).toBe(401);
    expect((await refusal(() => app.services.userAdmin.deletePreview(alice, s.id)))?.status).toBe(403);
    // The role is checked first: a person learns nothing of which accounts exist.
    expect((await refusal(() => app.services.userAdmin.delete(alice, 999_999, { records: "remove" }, web)))?.status).toBe(403);
    expect((await refusal(() => app.services.userAdmin.deletePreview(alice, 999_999)))?.status).toBe(403);
    expect(await app.services.users.findUserById(s.id)).not.toBeNull();
  });

  test("one's own account is refused", async () => {
    await app.services.userAdmin.promote(systemActor, app.users.bob.user.id, cli);
    expect(await refusal(() => app.services.userAdmin.delete(adminActor, app.users.admin.user.id, { records: "keep" }, web))).toEqual({
      status: 400,
      message: "You cannot delete your own account: ask another administrator.",
    });
    await app.services.userAdmin.demote(systemActor, app.users.bob.user.id, cli);
  });
});

describe("the last active administrator", () => {
  const LAST = (action: string) => `admin@example.org is the last active administrator: make another account an administrator before you ${action} this one.`;

  test("cannot be blocked or deactivated through the API (400), even by themself", async () => {
    for (const action of ["block", "deactivate"]) {
      const res = await app.call("POST", `/api/users/${app.users.admin.user.id}/${action}`, { as: "admin" });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ status: 400, message: LAST(action) });
    }
    expect((await app.services.users.findUserById(app.users.admin.user.id))!.active).toBe(true);
  });

  test("cannot be demoted, blocked, deactivated or deleted by the system (the CLI's actor) either", async () => {
    for (const action of ["block", "deactivate", "demote"] as const) {
      expect(await refusal(() => app.services.userAdmin[action](systemActor, app.users.admin.user.id, cli))).toEqual({ status: 400, message: LAST(action) });
    }
    expect(await refusal(() => app.services.userAdmin.delete(systemActor, app.users.admin.user.id, { records: "keep" }, cli))).toEqual({
      status: 400,
      message: LAST("delete"),
    });
    expect(await auditOf("user.demote")).toHaveLength(1);
  });

  test("with a second active administrator, one of them may go; a deactivated one does not count", async () => {
    const second = await app.services.users.createUser(systemActor, { email: "second@example.org", password: "second-password", admin: true });
    await app.services.userAdmin.deactivate(systemActor, second.id, cli);
    expect((await refusal(() => app.services.userAdmin.demote(systemActor, app.users.admin.user.id, cli)))?.message).toBe(LAST("demote"));
    await app.services.userAdmin.activate(systemActor, second.id, cli);
    await app.services.userAdmin.demote(systemActor, second.id, cli);
    expect((await app.services.users.findUserById(second.id))!.isAdmin).toBe(false);
  });
});

describe("send a password-reset link", () => {
  test("mails /lost-password's one-use link to the account and audits user.password-reset", async () => {
    const user = app.users.alice.user;
    await app.services.userAdmin.sendPasswordReset(adminActor, user.id, web);
    const { messages } = await app.services.mail.searchOutbox(systemActor, { q: "set a new password" });
    const mail = messages.find((m) => m.recipient === "alice@example.org")!;
    expect(mail.subject).toEndWith("set a new password");
    const link = /(http\S+\/lost-password\/reset\?token=\S+)/.exec(mail.body)![1]!;
    const token = new URL(link).searchParams.get("token")!;
    await app.services.accounts.resetPassword(token, "alice-new-password");
    expect((await postLogin(app, "alice", "alice-new-password")).session).toBeString();
    const [entry] = await auditOf("user.password-reset");
    expect(entry).toMatchObject({ targetId: String(user.id), via: "web", address: "203.0.113.7" });
  });

  test("is refused for a blocked account (400) and for anyone but administrators", async () => {
    const s = await spammer("blocked-one", 0);
    await app.services.userAdmin.block(systemActor, s.id, cli);
    expect((await refusal(() => app.services.userAdmin.sendPasswordReset(adminActor, s.id, web)))?.status).toBe(400);
    const alice: Actor = { kind: "user", userId: app.users.alice.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
    expect((await refusal(() => app.services.userAdmin.sendPasswordReset(alice, app.users.bob.user.id, web)))?.status).toBe(403);
  });
});

describe("sign-in history", () => {
  test("a password sign-in writes a row with the method, the client's address and browser", async () => {
    app.clock.advance(60_000);
    const signedIn = await postLogin(app, "bob", "bob-password", "/", "198.51.100.23");
    expect(signedIn.session).toBeString();
    const [latest] = await app.services.sessions.listSignIns(adminActor, app.users.bob.user.id);
    expect(latest).toMatchObject({ userId: app.users.bob.user.id, at: app.clock.now(), method: "password", address: "198.51.100.23" });
    // A wrong password writes nothing.
    await postLogin(app, "bob", "wrong-password", "/", "198.51.100.23");
    expect(await app.services.sessions.listSignIns(adminActor, app.users.bob.user.id)).toHaveLength(1);
  });

  test("keeps the newest 100 per user", async () => {
    for (let i = 0; i < 102; i++) {
      app.clock.advance(1000);
      await app.services.sessions.openSession(app.users.bob.user.id, { method: "link" });
    }
    const rows = await app.services.sessions.listSignIns(adminActor, app.users.bob.user.id, 1000);
    expect(rows).toHaveLength(100);
    expect(rows[0]!.at).toBe(app.clock.now());
  });

  test("is for administrators", async () => {
    const alice: Actor = { kind: "user", userId: app.users.alice.user.id, isAdmin: false, groupIds: [], scopes: [], tokenId: null };
    expect((await refusal(() => app.services.sessions.listSignIns(alice, app.users.alice.user.id)))?.status).toBe(403);
  });
});
