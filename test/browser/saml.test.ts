// SAML sign-in in a real browser: Chromium goes from /saml/login to the IdP (samlify, on
// `localhost` — another site than Cairn's 127.0.0.1), whose page posts the response to the ACS
// cross-site. Chromium sends no SameSite=Lax cookie with that POST, which is why the ACS hands
// the browser on to a GET with a one-use code: the test checks the POST came without the cookie,
// the GET with it, and that the person ends signed in where they were going; and that the code
// opened in another browser signs nobody in.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Request as PwRequest } from "playwright-core";
import { systemActor } from "../../src/core/actor";
import { startBrowserApp, type BrowserApp } from "../helpers/browser";
import { startSamlIdp, type TestSamlIdp } from "../helpers/saml-idp";

let app: BrowserApp;
let idp: TestSamlIdp;

beforeAll(async () => {
  app = await startBrowserApp(async () => {
    idp = await startSamlIdp({ now: () => app.clock.now() } as Parameters<typeof startSamlIdp>[0], "localhost");
    return { SAML_IDPS: [{ name: "uni", title: "University (Shibboleth)", metadata_file: idp.metadataFile }] };
  });
  idp.useSpMetadata("uni", await (await fetch(`${app.base}/saml/metadata/uni`)).text());
});
afterAll(async () => {
  await app?.stop();
  await idp?.close();
});

const person = (id: string) => ({
  nameId: `${id}-persistent`,
  attributes: {
    "urn:oid:1.3.6.1.4.1.5923.1.1.1.6": [`${id}@uni.example`],
    "urn:oid:0.9.2342.19200300.100.1.3": [`${id}@uni.example`],
    "urn:oid:2.16.840.1.113730.3.1.241": [`${id[0]!.toUpperCase()}${id.slice(1)} Example`],
  },
});

describe("SAML in Chromium", () => {
  test("to the IdP and back: the cross-site POST carries no cookie, the GET does, and the person lands signed in at next", async () => {
    idp.loginAs(person("zoe"));
    const context = await app.newPerson();
    const page = await context.newPage();
    const seen: Promise<[string, string, boolean]>[] = [];
    page.on("request", (request: PwRequest) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/saml/authorized/")) {
        seen.push(request.allHeaders().then((h) => [request.method(), url.pathname, /cairn_saml=/.test(h.cookie ?? "")]));
      }
    });
    await page.goto("/saml/login/uni?next=%2Fsearch%3Fq%3Dsoil");
    await page.waitForURL((url) => url.pathname === "/search", { timeout: 15_000 });
    expect(new URL(page.url()).search).toBe("?q=soil");
    const zoe = await app.services.users.findUserByEmail(systemActor, "zoe@uni.example");
    expect(zoe).toMatchObject({ email: "zoe@uni.example", fullName: "Zoe Example" });
    const session = (await context.cookies()).find((c) => c.name === "cairn_session");
    expect((await app.services.sessions.resolve(session!.value))!.actor.userId).toBe(zoe!.id);
    expect((await context.cookies()).find((c) => c.name === "cairn_saml")).toBeUndefined();
    expect(await Promise.all(seen)).toEqual([
      ["POST", "/saml/authorized/uni", false],
      ["GET", "/saml/authorized/uni", true],
    ]);
    await context.close();
  });

  test("the ACS's code opened in another browser (with a sign-in of its own under way) signs nobody in there", async () => {
    idp.loginAs(person("yan"));
    const victim = await app.newPerson();
    const attacker = await app.newPerson();
    const attackerPage = await attacker.newPage();
    // The attacker's own sign-in, stopped at the ACS's answer: its code, taken to the victim's browser.
    // Playwright does not route a redirect's next request: the ACS's POST is made here instead, its 303 read, and the browser stopped.
    let code = "";
    await attackerPage.route(
      (url) => url.pathname === "/saml/authorized/uni",
      async (route) => {
        const answer = await route.fetch({ maxRedirects: 0 });
        code = new URL(answer.headers().location!, app.base).search;
        await route.abort();
      },
    );
    const stopped = attackerPage.waitForEvent("requestfailed", { predicate: (r) => r.url().includes("/saml/authorized/uni"), timeout: 15_000 });
    await attackerPage.goto("/saml/login/uni");
    await stopped;
    expect((await attacker.cookies()).find((c) => c.name === "cairn_session")).toBeUndefined();
    expect(code).toMatch(/^\?code=[A-Za-z0-9_-]+$/);
    const page = await victim.newPage();
    // The victim has a sign-in of their own under way (its cookie set; the IdP's page does not answer).
    idp.loginAs(null);
    await page.goto("/saml/login/uni");
    expect((await victim.cookies()).find((c) => c.name === "cairn_saml")?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const res = await page.goto(`/saml/authorized/uni${code}`);
    expect(res!.status()).toBe(400);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("That did not work");
    expect((await victim.cookies()).find((c) => c.name === "cairn_session")).toBeUndefined();
    await victim.close();
    await attacker.close();
  });
});
