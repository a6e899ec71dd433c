// Access requests: who may ask for access to a record's files and how (a user's request at once, a
// guest's after confirming their address), the requests and mail that come of it, answering them
// (grants and secret links with their expiry), the verification clean-up job, and bad input.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { listGrants, listLinks } from "../../src/access/store";
import { VERIFICATION_SENT } from "../../src/access-requests/service";
import { systemActor } from "../../src/core/actor";
import { DAY_MS, HOUR_MS } from "../../src/core/time";
import { accessVerificationsTable, requestsTable } from "../../src/db/tables";
import { BASE_URL } from "../helpers/app";
import { ALL_ALLOWED, ask, askBody, FILE_CONTENT, guestAsks, mailTo, newVersion, pathOf, recordWithFile, setAccessSettings, urlIn, type Access } from "../helpers/access-requests";
import { createRequestsTestApp, type Party, type RequestsTestApp } from "../helpers/requests";

let t: RequestsTestApp;
beforeAll(async () => {
  t = await createRequestsTestApp();
});
afterAll(() => t.close());

const db = () => t.services.deps.db;
const verifications = async () => (await db().select({ n: count() }).from(accessVerificationsTable).get())!.n;
const requestsAbout = (id: string) => db().select().from(requestsTable).where(eq(requestsTable.topicId, id)).all();
const user = (who: Party) => String(t.userIds[who]);
const action = (who: Party, id: string, name: string, body?: unknown) => t.callAs(who, "POST", `/api/requests/${id}/actions/${name}`, { body });
const timeline = async (who: Party, id: string) => (await t.callAs(who, "GET", `/api/requests/${id}/timeline`)).json.hits.hits as any[];
const endOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS + DAY_MS;
const grantsOf = (parentId: string) => listGrants(db(), parentId);

describe("who may ask, and how", () => {
  const OPEN: Access = { record: "public", files: "public" };
  const RESTRICTED: Access = { record: "restricted", files: "restricted" };
  type Row = [name: string, who: Party, email: string, options: { access?: Access; settings?: Record<string, unknown> }, status: number, says: string | object];
  const rows: Row[] = [
    ["a user with their account's address: a request", "bob", "bob@example.org", { settings: ALL_ALLOWED }, 200, { type: "user-access-request", status: "submitted" }],
    ["the account's address in another case", "carol", " Carol@Example.ORG ", { settings: ALL_ALLOWED }, 200, { type: "user-access-request" }],
    ["a user with another address: a verification", "bob", "bob.home@example.net", { settings: ALL_ALLOWED }, 200, { message: VERIFICATION_SENT }],
    ["anonymous: a verification", "anonymous", "gail@example.net", { settings: ALL_ALLOWED }, 200, { message: VERIFICATION_SENT }],
    ["the owner reads the files already", "alice", "alice@example.org", { settings: ALL_ALLOWED }, 403, "already have access"],
    ["an administrator reads the files already", "admin", "admin@example.org", { settings: ALL_ALLOWED }, 403, "already have access"],
    ["record and files public: nothing to ask (user)", "bob", "bob@example.org", { access: OPEN, settings: ALL_ALLOWED }, 403, "public"],
    ["record and files public: nothing to ask (guest)", "anonymous", "gail@example.net", { access: OPEN, settings: ALL_ALLOWED }, 403, "public"],
    ["users not allowed", "bob", "bob@example.org", { settings: { allow_guest_requests: true } }, 403, "from users"],
    ["guests not allowed", "anonymous", "gail@example.net", { settings: { allow_user_requests: true } }, 403, "from guests"],
    ["guests not allowed: a user with another address is told", "bob", "bob.home@example.net", { settings: { allow_user_requests: true } }, 403, "account's e-mail address"],
    ["settings never set: users", "bob", "bob@example.org", {}, 403, "from users"],
    ["settings never set: guests", "anonymous", "gail@example.net", {}, 403, "from guests"],
    ["a restricted record another user cannot read", "bob", "bob@example.org", { access: RESTRICTED, settings: ALL_ALLOWED }, 403, "Permission denied"],
    ["a restricted record, anonymous", "anonymous", "gail@example.net", { access: RESTRICTED, settings: ALL_ALLOWED }, 401, "Authentication required"],
  ];
  for (const [name, who, email, options, status, says] of rows) {
    test(`${name}: ${who} -> ${status}`, async () => {
      const record = await recordWithFile(t, options);
      const before = { verifications: await verifications(), mail: (await t.outbox()).length };
      const res = await ask(t, who, record.id, askBody(email));
      expect({ status: res.status, body: res.json }).toMatchObject({ status });
      if (typeof says === "string") expect(res.json.message).toContain(says);
      else expect(res.json).toMatchObject(says);
      const made = res.status === 200 && !("message" in res.json);
      expect(await requestsAbout(record.id)).toHaveLength(made ? 1 : 0);
      expect((await verifications()) - before.verifications).toBe(res.status === 200 && !made ? 1 : 0);
      if (status !== 200) expect((await t.outbox()).length).toBe(before.mail);
    });
  }

  test("an unknown record, and a draft's id, are 404", async () => {
    expect((await ask(t, "bob", "abcde-12345", askBody("bob@example.org"))).status).toBe(404);
    const draft = await t.callAs("alice", "POST", "/api/records", { body: { metadata: { title: "x" } } });
    expect((await ask(t, "bob", draft.json.id, askBody("bob@example.org"))).status).toBe(404);
  });

  test("files under embargo can be asked for", async () => {
    const record = await recordWithFile(t, { settings: ALL_ALLOWED, access: { record: "public", files: "restricted", embargo: { active: true, until: "2027-06-30" } } as any });
    const res = await ask(t, "bob", record.id, askBody("bob@example.org"));
    expect(res.status).toBe(200);
  });
});

describe("a user's request", () => {
  test("from the user to the owner about the record, submitted, the message its first comment; the owner mailed", async () => {
    const record = await recordWithFile(t, { settings: ALL_ALLOWED });
    const res = await ask(t, "carol", record.id, askBody("carol@example.org", { message: "<p>For my <b>thesis</b></p><script>alert(1)</script>" }));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      type: "user-access-request",
      title: 'Access request for "Buoy temperatures"',
      status: "submitted",
      is_open: true,
      expires_at: null,
      created_by: { user: user("carol") },
      receiver: { user: user("alice") },
      topic: { record: record.id },
    });
    expect(res.json.payload).toBeUndefined();
    expect(Object.keys(res.json.links.actions)).toEqual(["cancel"]);
    const owner = await t.callAs("alice", "GET", `/api/requests/${res.json.id}`);
    expect(Object.keys(owner.json.links.actions).sort()).toEqual(["accept", "decline"]);
    expect((await t.callAs("bob", "GET", `/api/requests/${res.json.id}`)).status).toBe(403);
    const comments = (await timeline("alice", res.json.id)).filter((e) => e.type === "C");
    expect(comments.map((e) => [e.created_by, e.payload.content])).toEqual([[{ user: user("carol") }, "<p>For my <b>thesis</b></p>"]]);

    const [mail] = (await t.outbox()).filter((m) => m.topic === `request:${res.json.id}`);
    expect(mail).toMatchObject({ recipient: "alice@example.org", subject: '[Cairn] Access request for "Buoy temperatures"' });
    expect(mail!.body).toContain('Carol Chen <carol@example.org> asks for access to the restricted files of "Buoy temperatures".');
    expect(mail!.body).toContain("For my thesis");
    expect(mail!.body).toContain(`${BASE_URL}/requests/${res.json.id}`);
  });

  test("the owner and the requester find it in their listings", async () => {
    const record = await recordWithFile(t, { settings: ALL_ALLOWED, title: "Listed record" });
    const id = (await ask(t, "bob", record.id, askBody("bob@example.org"))).json.id;
    for (const who of ["alice", "bob"] as const) {
      const mine = await t.callAs(who, "GET", "/api/user/requests?type=user-access-request&size=100");
      expect(mine.json.hits.hits.map((h: any) => h.id)).toContain(id);
      const all = await t.callAs(who, "GET", "/api/requests?type=user-access-request&size=100");
      expect(all.json.hits.hits.map((h: any) => h.id)).toContain(id);
    }
    const other = await t.callAs("carol", "GET", "/api/requests?type=user-access-request&size=100");
    expect(other.json.hits.hits.map((h: any) => h.id)).not.toContain(id);
  });

  test("one open request per record and user; after a cancel another; without a message no comment", async () => {
    const record = await recordWithFile(t, { settings: ALL_ALLOWED });
    const first = await ask(t, "bob", record.id, askBody("bob@example.org", { message: undefined }));
    expect(first.status).toBe(200);
    expect((await timeline("bob", first.json.id)).filter((e) => e.type === "C")).toEqual([]);
    const again = await ask(t, "bob", record.id, askBody("bob@example.org"));
    expect(again.status).toBe(400);
    expect(again.json.message).toContain("already asked");
    const cancelled = await action("bob", first.json.id, "cancel");
    expect(cancelled.json.status).toBe("cancelled");
    expect((await mailTo(t, "alice@example.org")).at(-1)!.subject).toContain("cancelled");
    expect((await ask(t, "bob", record.id, askBody("bob@example.org"))).status).toBe(200);
    expect(await grantsOf(record.parent.id)).toEqual([]);
  });
});

describe("one open request per record, whichever version is asked about", () => {
  test("a user's open request on one version blocks asking about another", async () => {
    const v1 = await recordWithFile(t, { settings: ALL_ALLOWED });
    expect((await ask(t, "bob", v1.id, askBody("bob@example.org"))).status).toBe(200);
    const v2 = await newVersion(t, v1.id);
    const res = await ask(t, "bob", v2.id, askBody("bob@example.org"));
    expect(res.status).toBe(400);
    expect(res.json.message).toContain("already asked");
    expect((await ask(t, "carol", v2.id, askBody("carol@example.org"))).status).toBe(200);
  });
});

describe("a guest's request", () => {
  test("a verification mail with a single-use link; the hash alone is stored", async () => {
    const record = await recordWithFile(t, { settings: ALL_ALLOWED });
    const res = await ask(t, "anonymous", record.id, askBody("Gwen@Example.net", { full_name: "Gwen Guest" }));
    expect(res.json).toEqual({ message: VERIFICATION_SENT });
    const [mail] = await mailTo(t, "Gwen@Example.net");
    expect(mail!.subject).toBe('[Cairn] Confirm your access request for "Buoy temperatures"');
    expect(mail!.body).toContain("Dear Gwen Guest,");
    expect(mail!.body).toContain("within 6 hours");
    const link = urlIn(mail!.body, `${BASE_URL}/api/access/requests/verify?token=`);
    const token = new URL(link).searchParams.get("token")!;
    const stored = await db().select().from(accessVerificationsTable).all();
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.find((v) => v.recordId === record.id)).toMatchObject({
      email: "Gwen@Example.net",
      fullName: "Gwen Guest",
      consent: true,
      expiresAt: t.clock.now() + 6 * HOUR_MS,
    });
    expect(await requestsAbout(record.id)).toEqual([]);

    const confirmed = await t.callAs("anonymous", "GET", pathOf(link));
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toMatchObject({ message: expect.stringContaining("sent to the record's owner"), request: { status: "submitted" } });
    const again = await t.callAs("anonymous", "GET", pathOf(link));
    expect(again.status).toBe(404);
    expect(again.json.message).toContain("unknown or was used already");

    const request = await t.callAs("alice", "GET", `/api/requests/${confirmed.json.request.id}`);
    expect(request.json).toMatchObject({
      type: "guest-access-request",
      status: "submitted",
      created_by: { email: "gwen@example.net" },
      receiver: { user: user("alice") },
      topic: { record: record.id },
      title: 'Access request for "Buoy temperatures"',
    });
    expect(Object.keys(request.json.links.actions).sort()).toEqual(["accept", "decline"]);
    const comments = (await timeline("alice", request.json.id)).filter((e) => e.type === "C");
    expect(comments.map((e) => e.payload.content)).toEqual(["<p>I study buoys.</p>"]);
    const owner = (await t.outbox()).filter((m) => m.topic === `request:${request.json.id}`);
    expect(owner.map((m) => m.recipient)).toEqual(["alice@example.org"]);
    expect(owner[0]!.body).toContain("Gwen Guest <Gwen@Example.net> asks for access to the restricted files");
    expect(owner[0]!.body).toContain("They agree to share their name and e-mail address with you.");
  });

  test("a link expires after 6 hours; unknown, missing and overlong tokens are refused", async () => {
    const record = await recordWithFile(t, { settings: ALL_ALLOWED });
    await ask(t, "anonymous", record.id, askBody("late@example.net"));
    const link = urlIn((await mailTo(t, "late@example.net"))[0]!.body, `${BASE_URL}/api/access/requests/verify`);
    t.clock.advance(6 * HOUR_MS);
    const late = await t.callAs("anonymous", "GET", pathOf(link));
    expect(late.status).toBe(400);
    expect(late.json.message).toContain("expired");
    expect((await t.callAs("anonymous", "GET", pathOf(link))).status).toBe(404);
    expect(await requestsAbout(record.id)).toEqual([]);
    const bad: [string, number][] = [
      ["/api/access/requests/verify?token=nope", 404],
      ["/api/access/requests/verify", 400],
      ["/api/access/requests/verify?token=", 400],
      [`/api/access/requests/verify?token=${"x".repeat(300)}`, 400],
    ];
    for (const [url, status] of bad) expect((await t.callAs("anonymous", "GET", url)).status).toBe(status);
  });

  test("the rules are checked again on confirming; a refused link stays usable", async () => {
    const record = await recordWithFile(t, { settings: ALL_ALLOWED });
    await ask(t, "anonymous", record.id, askBody("again@example.net"));
    const link = pathOf(urlIn((await mailTo(t, "again@example.net"))[0]!.body, BASE_URL));
    await setAccessSettings(t, record.id, { allow_guest_requests: false });
    const refused = await t.callAs("anonymous", "GET", link);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toContain("from guests");
    await setAccessSettings(t, record.id, ALL_ALLOWED);
    expect((await t.callAs("anonymous", "GET", link)).status).toBe(200);
  });

  test("one open request per record and address, checked on confirming", async () => {
    const record = await recordWithFile(t, { settings: ALL_ALLOWED });
    await guestAsks(t, record.id, "twice@example.net");
    expect((await ask(t, "anonymous", record.id, askBody("TWICE@example.net"))).status).toBe(200);
    const link = pathOf(urlIn((await mailTo(t, "TWICE@example.net"))[0]!.body, BASE_URL));
    const res = await t.callAs("anonymous", "GET", link);
    expect(res.status).toBe(400);
    expect(res.json.message).toContain("already asked");
  });

  test("a signed-in user asking with another address is a guest of that address", async () => {
    const record = await recordWithFile(t, { settings: ALL_ALLOWED });
    await ask(t, "bob", record.id, askBody("bob.home@example.net"));
    const link = pathOf(urlIn((await mailTo(t, "bob.home@example.net")).at(-1)!.body, BASE_URL));
    const res = await t.callAs("bob", "GET", link);
    expect(res.status).toBe(200);
    expect((await requestsAbout(record.id))[0]).toMatchObject({ type: "guest-access-request", createdByKind: "email", createdById: "bob.home@example.net" });
  });

  test("the daily job drops the verifications past their 6 hours", async () => {
    const record = await recordWithFile(t, { settings: ALL_ALLOWED });
    await ask(t, "anonymous", record.id, askBody("old1@example.net"));
    await ask(t, "anonymous", record.id, askBody("old2@example.net"));
    t.clock.advance(5 * HOUR_MS);
    await ask(t, "anonymous", record.id, askBody("fresh@example.net"));
    t.clock.advance(HOUR_MS);
    const before = await verifications();
    const job = await t.services.jobs.runNow(systemActor, "access-verifications-clean");
    expect((job.result as { deleted: number }).deleted).toBeGreaterThanOrEqual(2);
    expect(await verifications()).toBe(1);
    expect(before).toBeGreaterThanOrEqual(3);
    expect(t.services.jobs.registry.get("access-verifications-clean")?.schedule).toEqual({ dailyAt: "00:05" });
  });
});

describe("answering", () => {
  const userRequest = async (settings: Record<string, unknown> = ALL_ALLOWED) => {
    const record = await recordWithFile(t, { settings });
    const res = await ask(t, "bob", record.id, askBody("bob@example.org"));
    expect(res.status).toBe(200);
    return { record, id: res.json.id as string };
  };

  test("accepting without a date: a view grant for the record's default days, counted from acceptance; the user mailed", async () => {
    const { record, id } = await userRequest();
    t.clock.advance(2 * DAY_MS);
    const res = await action("alice", id, "accept");
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("accepted");
    const expiresAt = endOfDay(t.clock.now() + 30 * DAY_MS);
    expect(await grantsOf(record.parent.id)).toMatchObject([{ subjectType: "user", subjectId: user("bob"), permission: "view", origin: `request:${id}`, expiresAt }]);
    const [mail] = (await t.outbox()).filter((m) => m.topic === `request:${id}` && m.recipient === "bob@example.org");
    expect(mail!.subject).toBe('[Cairn] Access granted to "Buoy temperatures"');
    expect(mail!.body).toContain(`You now have access until ${new Date(expiresAt - 1).toISOString().slice(0, 10)} (UTC).`);
    expect(mail!.body).toContain(`${BASE_URL}/records/${record.id}`);
    expect((await t.callAs("bob", "GET", `/api/records/${record.id}/files/data.csv/content`)).text).toBe(FILE_CONTENT);
  });

  test("accepting with a date and a comment: the grant ends with that day", async () => {
    const { record, id } = await userRequest();
    const res = await action("alice", id, "accept", { payload: { content: "<p>Enjoy</p>", expires_at: "2027-03-31" } });
    expect(res.status).toBe(200);
    expect((await grantsOf(record.parent.id))[0]!.expiresAt).toBe(Date.UTC(2027, 2, 31) + DAY_MS);
    expect((await timeline("bob", id)).filter((e) => e.type === "C").map((e) => e.payload.content)).toEqual(["<p>I study buoys.</p>", "<p>Enjoy</p>"]);
    const mail = (await mailTo(t, "bob@example.org")).at(-1)!;
    expect(mail.body).toContain("until 2027-03-31 (UTC)");
    expect(mail.body).toContain("Enjoy");
  });

  test("expires_at null, or a default of 0 days: no end", async () => {
    const a = await userRequest();
    expect((await action("alice", a.id, "accept", { payload: { expires_at: null } })).status).toBe(200);
    expect((await grantsOf(a.record.parent.id))[0]!.expiresAt).toBeNull();
    const b = await userRequest({ ...ALL_ALLOWED, secret_link_expiration: 0 });
    expect((await action("alice", b.id, "accept")).status).toBe(200);
    expect((await grantsOf(b.record.parent.id))[0]!.expiresAt).toBeNull();
    expect((await mailTo(t, "bob@example.org")).at(-1)!.body).toContain("You now have access with no end date.");
  });

  test("the default is the one in force when the request was made", async () => {
    const { record, id } = await userRequest({ ...ALL_ALLOWED, secret_link_expiration: 7 });
    await setAccessSettings(t, record.id, { ...ALL_ALLOWED, secret_link_expiration: 365 });
    await action("alice", id, "accept");
    expect((await grantsOf(record.parent.id))[0]!.expiresAt).toBe(endOfDay(t.clock.now() + 7 * DAY_MS));
  });

  const badDates: [string, unknown, string][] = [
    ["in the past", "2020-01-01", "Expiration date must be set to the future."],
    ["today", "today", "Expiration date must be set to the future."],
    ["not a date", "31/12/2027", "Not a valid date"],
    ["not a calendar date", "2027-02-30", "Not a valid date"],
    ["a number", 20271231, "Not a valid date"],
    ["a list", ["2027-12-31"], "Not a valid date"],
  ];
  for (const [name, value, says] of badDates) {
    test(`accepting with expires_at ${name}: 400, nothing granted, still open`, async () => {
      const { record, id } = await userRequest();
      const date = value === "today" ? new Date(t.clock.now()).toISOString().slice(0, 10) : value;
      const res = await action("alice", id, "accept", { payload: { expires_at: date } });
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual([{ field: "payload.expires_at", messages: [expect.stringContaining(says)] }]);
      expect(await grantsOf(record.parent.id)).toEqual([]);
      expect((await t.callAs("alice", "GET", `/api/requests/${id}`)).json.status).toBe("submitted");
    });
  }

  test("declining grants nothing and mails the user", async () => {
    const { record, id } = await userRequest();
    const res = await action("alice", id, "decline", { payload: { content: "Not yet published" } });
    expect(res.json.status).toBe("declined");
    expect(await grantsOf(record.parent.id)).toEqual([]);
    const mail = (await mailTo(t, "bob@example.org")).at(-1)!;
    expect(mail.subject).toBe('[Cairn] Access request declined: "Buoy temperatures"');
    expect(mail.body).toContain('declined your request for access to the files of "Buoy temperatures"');
    expect(mail.body).toContain("Not yet published");
    expect((await t.callAs("bob", "GET", `/api/records/${record.id}/files/data.csv/content`)).status).toBe(403);
  });

  test("who may act on a user's request", async () => {
    const rows: [Party, string, number][] = [
      ["bob", "accept", 403],
      ["bob", "decline", 403],
      ["carol", "accept", 403],
      ["admin", "accept", 403],
      ["anonymous", "accept", 401],
      ["alice", "cancel", 403],
    ];
    const { id } = await userRequest();
    for (const [who, name, status] of rows) expect({ who, name, status: (await action(who, id, name)).status }).toEqual({ who, name, status });
  });

  test("accepting a guest's request makes a view secret link, mailed to the guest once", async () => {
    const record = await recordWithFile(t, { settings: ALL_ALLOWED });
    const request = await guestAsks(t, record.id, "gina@example.net", { full_name: "Gina Guest" });
    expect((await action("bob", request.id, "accept")).status).toBe(403);
    const res = await action("alice", request.id, "accept");
    expect(res.status).toBe(200);
    const [link] = await listLinks(db(), record.parent.id);
    expect(link).toMatchObject({
      permission: "view",
      description: "Access request by Gina Guest <gina@example.net>",
      origin: `request:${request.id}`,
      expiresAt: endOfDay(t.clock.now() + 30 * DAY_MS),
    });
    const mails = (await t.outbox()).filter((m) => m.topic === `request:${request.id}` && m.recipient === "gina@example.net");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('[Cairn] Access granted to "Buoy temperatures"');
    const secret = urlIn(mails[0]!.body, `${BASE_URL}/api/records/${record.id}?token=`);
    const token = new URL(secret).searchParams.get("token")!;
    expect(mails[0]!.body).toContain(`${BASE_URL}/records/${record.id}?token=${token}`);
    // The token is nowhere in the database: not in the request, its events, or the link row.
    expect(JSON.stringify(await requestsAbout(record.id))).not.toContain(token);
    expect(JSON.stringify(await listLinks(db(), record.parent.id))).not.toContain(token);
    const download = await t.callAs("anonymous", "GET", `/api/records/${record.id}/files/data.csv/content?token=${encodeURIComponent(token)}`);
    expect(download.status).toBe(200);
    expect(download.text).toBe(FILE_CONTENT);
  });

  test("declining a guest's request mails the guest, without a link to the request they cannot open", async () => {
    const record = await recordWithFile(t, { settings: ALL_ALLOWED });
    const request = await guestAsks(t, record.id, "dora@example.net");
    expect((await action("alice", request.id, "decline")).status).toBe(200);
    expect(await listLinks(db(), record.parent.id)).toEqual([]);
    const mail = (await mailTo(t, "dora@example.net")).at(-1)!;
    expect(mail.subject).toBe('[Cairn] Access request declined: "Buoy temperatures"');
    expect(mail.body).not.toContain("/requests/");
  });
});

describe("bad input never 5xx", () => {
  let id: string;
  beforeAll(async () => {
    id = (await recordWithFile(t, { settings: ALL_ALLOWED })).id;
  });
  const long = (n: number) => "x".repeat(n);
  const rows: [string, unknown, string][] = [
    ["a list", [askBody("bob@example.org")], ""],
    ["a string", "view", ""],
    ["no permission", { ...askBody("g@example.net"), permission: undefined }, "permission"],
    ["another permission", askBody("g@example.net", { permission: "edit" }), "permission"],
    ["a number as permission", askBody("g@example.net", { permission: 1 }), "permission"],
    ["no e-mail", { permission: "view", full_name: "G" }, "email"],
    ["a number as e-mail", askBody(5 as any), "email"],
    ["not an address", askBody("not-an-address"), "email"],
    ["two addresses", askBody("a@example.net, b@example.net"), "email"],
    ["an address with a newline", askBody("a@example.net\nBcc: b@example.net"), "email"],
    ["an overlong address", askBody(`${long(250)}@example.net`), "email"],
    ["a number as full name", askBody("g@example.net", { full_name: 7 }), "full_name"],
    ["an overlong full name", askBody("g@example.net", { full_name: long(300) }), "full_name"],
    ["a guest without a full name", askBody("g@example.net", { full_name: "  " }), "full_name"],
    ["an object as message", askBody("g@example.net", { message: { a: 1 } }), "message"],
    ["an overlong message", askBody("g@example.net", { message: long(10_001) }), "message"],
    ["consent maybe", askBody("g@example.net", { consent_to_share_personal_data: "maybe" }), "consent_to_share_personal_data"],
    ["consent as a number", askBody("g@example.net", { consent_to_share_personal_data: 1 }), "consent_to_share_personal_data"],
  ];
  for (const [name, body, field] of rows) {
    test(`${name}: 400${field ? ` on ${field}` : ""}`, async () => {
      const before = await verifications();
      const res = await ask(t, "anonymous", id, body);
      expect({ status: res.status, body: res.json }).toMatchObject({ status: 400 });
      if (field) expect(res.json.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(await verifications()).toBe(before);
    });
  }

  test("malformed and odd requests", async () => {
    const calls: [string, string, Record<string, unknown>][] = [
      ["POST", `/api/records/${id}/access/request`, { rawBody: "{not json", headers: { "content-type": "application/json" } }],
      ["POST", `/api/records/${id}/access/request`, { rawBody: "permission=view", headers: { "content-type": "application/x-www-form-urlencoded" } }],
      ["POST", `/api/records/${id}/access/request`, {}],
      ["POST", `/api/records/${encodeURIComponent("../../etc")}/access/request`, { body: askBody("g@example.net") }],
      ["POST", `/api/records/${long(500)}/access/request`, { body: askBody("g@example.net") }],
      ["GET", `/api/access/requests/verify?token=a&token=b`, {}],
      ["GET", `/api/access/requests/verify?token=${encodeURIComponent("\u0000\u{1F600}")}`, {}],
      ["PUT", `/api/records/${id}/access/request`, { body: {} }],
      ["POST", `/api/access/requests/verify?token=x`, {}],
    ];
    for (const [method, url, options] of calls) {
      const res = await t.callAs("anonymous", method, url, options);
      expect({ url, status: res.status < 500, body: res.json }).toMatchObject({ url, status: true });
    }
  });

  test("accept bodies of the wrong shape", async () => {
    const record = await recordWithFile(t, { settings: ALL_ALLOWED });
    const rid = (await ask(t, "bob", record.id, askBody("bob@example.org"))).json.id;
    for (const body of [{ payload: "x" }, { payload: { expires_at: {} } }, { payload: { content: 5, expires_at: "2027-01-01" } }, [1], "x"]) {
      const res = await action("alice", rid, "accept", body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await t.callAs("alice", "GET", `/api/requests/${rid}`)).json.status).toBe("submitted");
  });
});
