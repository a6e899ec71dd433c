// Storage quotas in the pages: the administration's user page (storage used and quota, "Set quota")
// and its form (a 404 for everyone else; CSRF; sizes as settings take them; refusals as a 400 form;
// audited via the web from the client's address); the usage on the deposit page and the profile.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { pageSession } from "../helpers/accounts";
import { createTestApp, type TestApp } from "../helpers/app";
import { uploadFile } from "../helpers/files";
import { draftWithFiles } from "../helpers/records";
import { raw } from "../helpers/sign-in";

const NOT_FOUND = "The requested URL was not found on the server.";
const ADDRESS = "203.0.113.7";

let app: TestApp;
let admin: { cookie: string; csrf: string };
let alice: { cookie: string; csrf: string };
let aliceId: number;
const session = (login: string) => pageSession(app, login);
const get = (path: string, who?: { cookie: string }) => raw(app, "GET", path, { cookie: who?.cookie });
const post = (path: string, who: { cookie: string } | null, form: Record<string, string>) => raw(app, "POST", path, { cookie: who?.cookie, form, address: ADDRESS });
/** The page's text without its tags, spaces collapsed. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

beforeAll(async () => {
  app = await createTestApp();
  admin = await session("admin");
  alice = await session("alice");
  aliceId = app.users.alice.user.id;
});
afterAll(() => app.close());

describe("Set quota in the administration", () => {
  test("a 404 for a guest and a signed-in person, on the form and its POST; nothing set", async () => {
    const path = `/administration/users/${aliceId}/quota`;
    for (const who of [undefined, alice]) {
      const page = await get(path, who);
      expect([page.status, page.text.includes(NOT_FOUND)]).toEqual([404, true]);
      expect((await post(path, who ?? null, { csrf: who?.csrf ?? "", quota_size: "1GB" })).status).toBe(404);
    }
    expect((await app.services.audit.search(systemActor, { action: "user.quota" })).entries).toEqual([]);
  });

  test("the user's page shows storage used and quota with a link to the form; the form sets it (audited via the web) and the pages show it", async () => {
    const id = await draftWithFiles(app);
    await uploadFile(app, id, "data.csv", "x".repeat(1500));
    const user = await get(`/administration/users/${aliceId}`, admin);
    expect(user.status).toBe(200);
    expect(textOf(user.text)).toContain("Storage All their drafts and records: 1.5 kB used (no limit); largest file 53.7 GB. Set quota");
    expect(user.text).toContain(`<a href="/administration/users/${aliceId}/quota">Set quota</a>`);

    const form = await get(`/administration/users/${aliceId}/quota`, admin);
    expect(form.status).toBe(200);
    expect(form.text).toContain("<h1>Storage quota of alice@example.org</h1>");
    expect(form.text).toContain('name="quota_size"');

    const set = await post(`/administration/users/${aliceId}/quota`, admin, { csrf: admin.csrf, quota_size: "2KiB", max_file_size: "", notes: "pilot project" });
    expect([set.status, set.headers.get("location")]).toEqual([303, `/administration/users/${aliceId}/quota?saved=1`]);
    const saved = await get(`/administration/users/${aliceId}/quota?saved=1`, admin);
    expect(textOf(saved.text)).toContain("The storage quota was set.");
    expect(textOf(saved.text)).toContain("All their drafts and records: 1.5 kB of 2.0 kB used; largest file 53.7 GB.");
    expect(textOf(saved.text)).toContain("Set by an administrator: pilot project");
    expect(saved.text).toContain('<meter min="0" max="2048" value="1500"');
    const entries = (await app.services.audit.search(systemActor, { action: "user.quota" })).entries;
    expect(entries.map((e) => [e.actorLabel, e.via, e.address, e.targetId, e.details.quota_size, e.details.notes])).toEqual([
      ["admin@example.org", "web", ADDRESS, String(aliceId), 2048, "pilot project"],
    ]);

    // The owner sees the same on the deposit page and in their profile.
    const deposit = textOf((await get(`/uploads/${id}`, alice)).text);
    expect(deposit).toContain("This upload: 1.5 kB of 10.0 GB used; largest file 53.7 GB.");
    expect(deposit).toContain("All your uploads: 1.5 kB of 2.0 kB used; largest file 53.7 GB.");
    expect(textOf((await get("/account/settings/profile", alice)).text)).toContain("Storage All your uploads: 1.5 kB of 2.0 kB used; largest file 53.7 GB.");
  });

  test("refusals: no CSRF token (nothing set), a size that is not one and a missing quota (400 with the form and its messages)", async () => {
    const path = `/administration/users/${aliceId}/quota`;
    const before = (await app.services.audit.search(systemActor, { action: "user.quota" })).total;
    expect((await post(path, admin, { quota_size: "1GB" })).status).toBe(403);
    const notASize = await post(path, admin, { csrf: admin.csrf, quota_size: "lots", max_file_size: "1MB" });
    expect(notASize.status).toBe(400);
    expect(notASize.text).toContain("Write a size such as 20GB, 500MiB or a number of bytes.");
    expect(notASize.text).toContain('value="lots"');
    const missing = await post(path, admin, { csrf: admin.csrf, quota_size: "" });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain("Missing data for required field.");
    expect((await app.services.audit.search(systemActor, { action: "user.quota" })).total).toBe(before);
    expect((await get(`/administration/users/999999/quota`, admin)).status).toBe(404);
  });
});
