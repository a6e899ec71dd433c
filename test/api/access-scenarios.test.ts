// Access to restricted files end to end, through the API and the mail outbox only: (a) a user asks,
// the owner accepts with an expiry, the user downloads from this and a newer version until the
// expiry passes; (b) a guest asks, confirms by mail, is accepted and downloads with the mailed
// secret link; (c) the owner declines and nothing is granted.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DAY_MS } from "../../src/core/time";
import { BASE_URL, expectStatus } from "../helpers/app";
import { ALL_ALLOWED, ask, askBody, FILE_CONTENT, mailTo, newVersion, pathOf, recordWithFile, setAccessSettings, urlIn } from "../helpers/access-requests";
import { createRequestsTestApp, type Party, type RequestsTestApp } from "../helpers/requests";

let t: RequestsTestApp;
beforeAll(async () => {
  t = await createRequestsTestApp();
});
afterAll(() => t.close());

const download = (who: Party, id: string, key: string, token?: string) =>
  t.callAs(who, "GET", `/api/records/${id}/files/${key}/content${token ? `?token=${encodeURIComponent(token)}` : ""}`);
const action = (who: Party, id: string, name: string, body?: unknown) => t.callAs(who, "POST", `/api/requests/${id}/actions/${name}`, { body });

describe("(a) a signed-in user asks and is granted access until a date", () => {
  test("asking, accepting with an expiry, downloading this and a newer version, then refused after the expiry", async () => {
    const v1 = await recordWithFile(t);
    await setAccessSettings(t, v1.id, ALL_ALLOWED);
    expect((await download("bob", v1.id, "data.csv")).status).toBe(403);

    // Bob asks with his account's address: a request to alice at once.
    const asked = await ask(t, "bob", v1.id, askBody("bob@example.org", { message: "<p>For the buoy comparison</p>" }));
    expectStatus(asked, 200);
    expect(asked.json).toMatchObject({
      type: "user-access-request",
      status: "submitted",
      created_by: { user: String(t.userIds.bob) },
      receiver: { user: String(t.userIds.alice) },
    });
    const requestId = asked.json.id as string;
    const toOwner = (await t.outbox()).filter((m) => m.topic === `request:${requestId}`);
    expect(toOwner.map((m) => [m.recipient, m.subject])).toEqual([["alice@example.org", '[Cairn] Access request for "Buoy temperatures"']]);
    expect(toOwner[0]!.body).toContain("For the buoy comparison");
    const dashboard = await t.callAs("alice", "GET", "/api/user/requests?is_open=true");
    expect(dashboard.json.hits.hits.map((h: any) => h.id)).toContain(requestId);

    // Alice accepts with an expiry date and a comment.
    const accepted = await action("alice", requestId, "accept", { payload: { content: "<p>Until the end of the year</p>", expires_at: "2026-12-31" } });
    expectStatus(accepted, 200);
    expect(accepted.json.status).toBe("accepted");
    const toBob = (await mailTo(t, "bob@example.org")).filter((m) => m.topic === `request:${requestId}`);
    expect(toBob).toHaveLength(1);
    expect(toBob[0]!.subject).toBe('[Cairn] Access granted to "Buoy temperatures"');
    expect(toBob[0]!.body).toContain("You now have access until 2026-12-31 (UTC).");
    expect(toBob[0]!.body).toContain("Until the end of the year");
    const grants = await t.callAs("alice", "GET", `/api/records/${v1.id}/access/users/${t.userIds.bob}`);
    expectStatus(grants, 200);
    expect(grants.json).toMatchObject({ subject: { type: "user", id: String(t.userIds.bob) }, permission: "view", origin: `request:${requestId}`, expires_at: "2026-12-31" });

    // Bob reads the files of this version, and of a version published after the acceptance.
    const got = await download("bob", v1.id, "data.csv");
    expectStatus(got, 200);
    expect(got.text).toBe(FILE_CONTENT);
    expect((await t.callAs("bob", "GET", `/api/records/${v1.id}`)).json.files.entries["data.csv"]).toBeDefined();
    const v2 = await newVersion(t, v1.id);
    expect(v2.access.files).toBe("restricted");
    expect((await download("carol", v2.id, "v2.csv")).status).toBe(403);
    const got2 = await download("bob", v2.id, "v2.csv");
    expectStatus(got2, 200);
    expect(got2.text).toBe("v2 data");

    // The last minute of 2026-12-31 still works; from 2027-01-01 00:00 UTC it is refused.
    t.clock.set(Date.UTC(2026, 11, 31, 23, 59));
    expect((await download("bob", v2.id, "v2.csv")).status).toBe(200);
    t.clock.set(Date.UTC(2027, 0, 1));
    expect((await download("bob", v1.id, "data.csv")).status).toBe(403);
    expect((await download("bob", v2.id, "v2.csv")).status).toBe(403);
    expect((await t.callAs("bob", "GET", `/api/records/${v2.id}`)).json.files.entries).toEqual({});
    // The owner's access is not touched.
    expect((await download("alice", v2.id, "v2.csv")).status).toBe(200);
  });
});

describe("(b) a guest asks, confirms by mail and downloads with the mailed secret link", () => {
  test("asking, confirming, accepting, downloading; the link expires with the record's default", async () => {
    const record = await recordWithFile(t, { title: "Seal tracks" });
    await setAccessSettings(t, record.id, ALL_ALLOWED);
    const guest = "gail@example.net";

    const asked = await ask(t, "anonymous", record.id, askBody(guest, { full_name: "Gail Guest", message: "<p>For a school project</p>" }));
    expectStatus(asked, 200);
    expect(asked.json).toEqual({ message: "Verification link sent out, please check your e-mail inbox" });
    const [verification] = await mailTo(t, guest);
    expect(verification!.subject).toBe('[Cairn] Confirm your access request for "Seal tracks"');
    const confirmLink = urlIn(verification!.body, `${BASE_URL}/api/access/requests/verify?token=`);

    const confirmed = await t.callAs("anonymous", "GET", pathOf(confirmLink));
    expectStatus(confirmed, 200);
    expect(confirmed.json.request).toMatchObject({ status: "submitted" });
    const requestId = confirmed.json.request.id as string;
    const request = await t.callAs("alice", "GET", `/api/requests/${requestId}`);
    expect(request.json).toMatchObject({ type: "guest-access-request", created_by: { email: guest }, receiver: { user: String(t.userIds.alice) }, topic: { record: record.id } });
    const toOwner = (await t.outbox()).filter((m) => m.topic === `request:${requestId}`);
    expect(toOwner.map((m) => m.recipient)).toEqual(["alice@example.org"]);
    expect(toOwner[0]!.body).toContain('Gail Guest <gail@example.net> asks for access to the restricted files of "Seal tracks".');
    expect(toOwner[0]!.body).toContain("For a school project");
    expect((await t.callAs("alice", "GET", "/api/requests?type=guest-access-request")).json.hits.hits.map((h: any) => h.id)).toContain(requestId);

    const accepted = await action("alice", requestId, "accept");
    expectStatus(accepted, 200);
    const acceptedAt = t.clock.now();
    const toGuest = (await mailTo(t, guest)).filter((m) => m.topic === `request:${requestId}`);
    expect(toGuest).toHaveLength(1);
    const lastDay = new Date(Math.floor((acceptedAt + 30 * DAY_MS) / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
    expect(toGuest[0]!.body).toContain(`valid until ${lastDay} (UTC)`);
    const secret = urlIn(toGuest[0]!.body, `${BASE_URL}/api/records/${record.id}?token=`);
    const token = new URL(secret).searchParams.get("token")!;

    const links = await t.callAs("alice", "GET", `/api/records/${record.id}/access/links`);
    expect(links.json.hits.hits).toMatchObject([
      { permission: "view", origin: `request:${requestId}`, expires_at: lastDay, description: "Access request by Gail Guest <gail@example.net>" },
    ]);
    expect(JSON.stringify(links.json)).not.toContain(token);

    // With the link the guest reads the record's files; without it not.
    expect((await download("anonymous", record.id, "data.csv")).status).toBe(401);
    const got = await download("anonymous", record.id, "data.csv", token);
    expectStatus(got, 200);
    expect(got.text).toBe(FILE_CONTENT);
    const seen = await t.callAs("anonymous", "GET", pathOf(secret));
    expect(seen.json.files.entries["data.csv"]).toBeDefined();

    // The link ends with its last day.
    t.clock.set(Math.floor((acceptedAt + 30 * DAY_MS) / DAY_MS) * DAY_MS + DAY_MS);
    expect((await download("anonymous", record.id, "data.csv", token)).status).toBe(401);
  });
});

describe("(c) the owner declines: nothing is granted, the requester is told", () => {
  test("a user's and a guest's request declined", async () => {
    const record = await recordWithFile(t, { title: "Ice cores" });
    await setAccessSettings(t, record.id, ALL_ALLOWED);

    const asked = await ask(t, "bob", record.id, askBody("bob@example.org"));
    expectStatus(asked, 200);
    const declined = await action("alice", asked.json.id, "decline", { payload: { content: "<p>The data are under review</p>" } });
    expectStatus(declined, 200);
    expect(declined.json.status).toBe("declined");
    const toBob = (await mailTo(t, "bob@example.org")).filter((m) => m.topic === `request:${asked.json.id}`);
    expect(toBob.map((m) => m.subject)).toEqual(['[Cairn] Access request declined: "Ice cores"']);
    expect(toBob[0]!.body).toContain('declined your request for access to the files of "Ice cores"');
    expect(toBob[0]!.body).toContain("The data are under review");

    await ask(t, "anonymous", record.id, askBody("dan@example.net", { full_name: "Dan Guest" }));
    const confirm = urlIn((await mailTo(t, "dan@example.net"))[0]!.body, `${BASE_URL}/api/access/requests/verify?token=`);
    const guestRequest = (await t.callAs("anonymous", "GET", pathOf(confirm))).json.request.id as string;
    expectStatus(await action("alice", guestRequest, "decline"), 200);
    const toDan = (await mailTo(t, "dan@example.net")).filter((m) => m.topic === `request:${guestRequest}`);
    expect(toDan.map((m) => m.subject)).toEqual(['[Cairn] Access request declined: "Ice cores"']);
    expect(toDan[0]!.body).not.toContain("token=");

    expect((await t.callAs("alice", "GET", `/api/records/${record.id}/access/grants`)).json.hits).toEqual({ hits: [], total: 0 });
    expect((await t.callAs("alice", "GET", `/api/records/${record.id}/access/links`)).json.hits).toEqual({ hits: [], total: 0 });
    expect((await download("bob", record.id, "data.csv")).status).toBe(403);
    expect((await t.callAs("bob", "GET", `/api/records/${record.id}`)).json.files.entries).toEqual({});
    // Declined is closed: bob may ask again.
    expectStatus(await ask(t, "bob", record.id, askBody("bob@example.org")), 200);
  });
});
