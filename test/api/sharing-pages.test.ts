// Issue 33 items 5 and 6 as pages answer them: a guest's mailed verification link opened in a
// browser is a page (the API keeps its JSON), the guest appears by the name they gave in the owner's
// request page and timeline, pages that would promise a mail say what happens when mail is off, and
// the server's start says once that mail is off.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config";
import { MAIL_OFF_WARNING, startServer } from "../../src/server/serve";
import { BASE_URL, expectStatus } from "../helpers/app";
import { ALL_ALLOWED, ask, askBody, mailTo, pathOf, recordWithFile, urlIn } from "../helpers/access-requests";
import { guestForm, postGuestForm, sessionCookie } from "../helpers/accounts";
import { freePort } from "../helpers/cli";
import { createRequestsTestApp, type RequestsTestApp } from "../helpers/requests";
import { raw } from "../helpers/sign-in";

const HTML = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

let t: RequestsTestApp;
let recordId = "";
beforeAll(async () => {
  // No MAIL_SERVER: mail is off, the mail still waits in the outbox (where the tests read the links).
  t = await createRequestsTestApp();
  recordId = (await recordWithFile(t, { settings: ALL_ALLOWED })).id;
});
afterAll(() => t.close());

/** A guest asks; the verification link of the mail queued for them. */
async function guestLink(email: string, fullName = "Gail Guest") {
  expectStatus(await ask(t, "anonymous", recordId, askBody(email, { full_name: fullName })), 200);
  return urlIn((await mailTo(t, email)).at(-1)!.body, `${BASE_URL}/api/access/requests/verify?token=`);
}

describe("the guest's verification link", () => {
  test("a browser is sent to the page, whose button confirms: 'Access request sent' and what happens next; the link is spent", async () => {
    const link = pathOf(await guestLink("gail@example.net"));
    const token = new URL(link, BASE_URL).searchParams.get("token")!;
    const opened = await raw(t, "GET", link, { headers: HTML });
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(`/access/requests/verify?token=${encodeURIComponent(token)}`);

    // The page spends nothing (a mail scanner's GET): the owner has no request yet.
    const form = await guestForm(t, opened.headers.get("location")!);
    expect(form.html).toContain("<h1>Confirm your access request</h1>");
    expect(form.html).toContain(`name="token" value="${token}"`);
    expect((await t.callAs("alice", "GET", "/api/requests?type=guest-access-request")).json.hits.total).toBe(0);

    const done = await raw(t, "POST", "/access/requests/verify", { cookie: form.cookie, form: { csrf: form.csrf, token } });
    expect(done.status).toBe(200);
    expect(done.headers.get("content-type")).toContain("text/html");
    expect(done.text).toContain("<h1>Access request sent</h1>");
    expect(done.text).toContain("What happens next");
    expect(done.text).toContain("Access request for &quot;Buoy temperatures&quot; was sent to the record's owner.");
    // Mail is off: the page does not promise an answer by mail.
    expect(done.text).toContain("no answer will reach you by mail");
    expect(done.text).not.toContain("You will hear of their answer by e-mail");
    expect((await t.callAs("alice", "GET", "/api/requests?type=guest-access-request")).json.hits.total).toBe(1);

    // Used once: the page says why it cannot be used again, as a page.
    const again = await postGuestForm(t, `/access/requests/verify?token=${token}`, { token });
    expect(again.status).toBe(404);
    expect(again.text).toContain("<h1>The link cannot be used</h1>");
    expect(again.text).toContain("unknown or was used already");
  });

  test("the confirm button needs the page's own form token (403 without it, nothing sent)", async () => {
    const token = new URL(await guestLink("hal@example.net", "Hal Guest")).searchParams.get("token")!;
    const forged = await raw(t, "POST", "/access/requests/verify", { form: { csrf: "forged", token } });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("The form has expired");
    const requests = (await t.callAs("alice", "GET", "/api/requests?type=guest-access-request")).json.hits.hits as { title: string; created_by: unknown }[];
    expect(requests.map((r) => r.created_by)).toEqual([{ email: "gail@example.net" }]);
  });

  test("an API client (JSON, or no Accept) keeps the JSON answer", async () => {
    const link = pathOf(await guestLink("ivy@example.net", "Ivy Guest"));
    const res = await t.callAs("anonymous", "GET", link, { headers: { accept: "application/json" } });
    expectStatus(res, 200);
    expect(res.json.request.status).toBe("submitted");
    const bad = await t.callAs("anonymous", "GET", "/api/access/requests/verify?token=nope");
    expect(bad.status).toBe(404);
    expect(bad.json.message).toContain("unknown or was used already");
  });
});

describe("a guest appears by the name they gave", () => {
  test("the timeline's submission is the guest's (not the system's); the owner's request page names 'Kim Guest', never 'user system'", async () => {
    expectStatus(await t.callAs("anonymous", "GET", pathOf(await guestLink("kim@example.net", "Kim Guest"))), 200);
    const hits = (await t.callAs("alice", "GET", "/api/requests?type=guest-access-request")).json.hits.hits as { id: string; created_by: unknown }[];
    const request = hits.find((r) => JSON.stringify(r.created_by) === JSON.stringify({ email: "kim@example.net" }))!;
    const timeline = await t.callAs("alice", "GET", `/api/requests/${request.id}/timeline`);
    expectStatus(timeline, 200);
    const authors = (timeline.json.hits.hits as { created_by: unknown }[]).map((e) => e.created_by);
    expect(authors.length).toBeGreaterThan(0);
    expect(authors).toEqual(authors.map(() => ({ email: "kim@example.net" })));

    const cookie = await sessionCookie(t, "alice", "alice-password");
    const page = await raw(t, "GET", `/me/requests/${request.id}`, { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain("<dt>From</dt><dd>Kim Guest &lt;kim@example.net></dd>");
    expect(page.text).toContain("Kim Guest &lt;kim@example.net> submitted the request");
    expect(page.text).not.toContain("user system");
    const list = await raw(t, "GET", "/me/requests", { cookie });
    expect(list.text).toContain("from Kim Guest &lt;kim@example.net>");
  });
});

describe("mail off: the pages say what happens instead of promising a mail", () => {
  test("a guest's access-request form and its answer: the owner does not see it until confirmed, and no link can be mailed", async () => {
    const form = await raw(t, "GET", `/records/${recordId}`);
    expect(form.status).toBe(200);
    expect(form.text).toContain("a guest's request goes to the owner only after the address is confirmed through a mailed link, which cannot be sent now");
    const answer = await raw(t, "POST", `/records/${recordId}/access/request`, {
      form: { email: "jo@example.net", full_name: "Jo Guest", message: "Please", consent_to_share_personal_data: "true" },
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("<h1>Access request not sent</h1>");
    expect(answer.text).toContain("the owner does not see it yet");
    expect(answer.text).not.toContain("Verification link sent out");
  });

  test("a forgotten password: the form and its answer say no link can arrive and whom to ask", async () => {
    const page = await guestForm(t, "/lost-password");
    expect(page.html).toContain("This site sends no e-mail at the moment (mail is off)");
    expect(page.html).not.toContain("we send it a link");
    const answer = await raw(t, "POST", "/lost-password", { cookie: page.cookie, form: { csrf: page.csrf, email: "bob@example.org" } });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("<h1>No mail can be sent</h1>");
    expect(answer.text).toContain("Ask the repository's administrators to set a new password for you.");
    expect(answer.text).not.toContain("Check your mail");
  });
});

describe("the Share dialog's page", () => {
  test("whoever manages the record gets it (and the Share button); another user gets 403 and no button", async () => {
    const alice = await sessionCookie(t, "alice", "alice-password");
    const bob = await sessionCookie(t, "bob", "bob-password");
    const own = await raw(t, "GET", `/records/${recordId}/share`, { cookie: alice });
    expect(own.status).toBe(200);
    expect(own.text).toContain('<div id="share-body" data-record="' + recordId + '">');
    expect(own.text).toContain('<input id="share-allow-guests" name="allow_guest_requests" type="checkbox" value="true" checked/>');
    expect((await raw(t, "GET", `/records/${recordId}`, { cookie: alice })).text).toContain('data-share-open="share-dialog"');
    const other = await raw(t, "GET", `/records/${recordId}/share`, { cookie: bob });
    expect(other.status).toBe(403);
    expect(other.text).toContain("Only the owner and people who manage this record can share it.");
    expect(other.text).not.toContain("share-body");
    expect((await raw(t, "GET", `/records/${recordId}`, { cookie: bob })).text).not.toContain("data-share-open");
    // A manage grant is enough: the same rule as the REST API's.
    expectStatus(
      await t.callAs("alice", "POST", `/api/records/${recordId}/access/grants`, {
        body: { grants: [{ subject: { type: "user", id: String(t.userIds.bob) }, permission: "manage" }] },
      }),
      201,
    );
    expect((await raw(t, "GET", `/records/${recordId}/share`, { cookie: bob })).status).toBe(200);
  });
});

describe("the server's start", () => {
  const start = async (mailServer: string) => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-mail-off-"));
    const said: string[] = [];
    const warned: string[] = [];
    const server = await startServer(
      loadConfig({ flags: { DATA_DIR: dir, HTTP: true, PORT: freePort(), BASE_URL: "http://127.0.0.1", MAIL_SERVER: mailServer }, env: {} }),
      (line) => said.push(line),
      (line) => warned.push(line),
    );
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
    return [...said, ...warned];
  };

  test("without MAIL_SERVER it prints one warning line; with one, none", async () => {
    const off = await start("");
    expect(off.filter((line) => line === MAIL_OFF_WARNING)).toHaveLength(1);
    expect(off.filter((line) => /MAIL_SERVER|mail is off/i.test(line))).toEqual([MAIL_OFF_WARNING]);
    const on = await start("smtp.example.org");
    expect(on.filter((line) => /MAIL_SERVER|mail is off/i.test(line))).toEqual([]);
  });
});
