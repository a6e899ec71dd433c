// Password sign-in against a directory (LDAP_*), through the /login form, against Debian's OpenLDAP
// server started on 127.0.0.1 (test/helpers/slapd.ts): the first sign-in makes a confirmed account
// from the entry, later ones open it again (also after the entry is renamed: the subject is the
// entryUUID), local accounts are tried first, one refusal for every wrong password, the same
// throttle, an empty password and filter injection refused, the entry's address linking a confirmed
// local account, deactivated accounts, group memberships, StartTLS and ldaps:// with the directory's
// CA, and an unreachable or misconfigured directory a 502 page. The settings' checks at start run
// without slapd.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { escapeFilterValue, firstRdnValue, guidText } from "../../src/accounts/ldap";
import { systemActor } from "../../src/core/actor";
import { ConfigError, loadConfig, type ConfigKey } from "../../src/config";
import { createTestApp, type TestApp } from "../helpers/app";
import { accountOf, signedIn } from "../helpers/accounts";
import { alertOf, loginForm, postLogin } from "../helpers/sign-in";
import { PEOPLE, SERVICE_DN, SERVICE_PASSWORD, slapdMissing, startSlapd, type TestSlapd } from "../helpers/slapd";

const GENERIC_REFUSAL = "The e-mail address (or username) and password do not match an active account.";
const HOUR = 3_600_000;

const missing = slapdMissing();
if (missing) console.warn(missing);

let slapd: TestSlapd;
const settings = (extra: Partial<Record<ConfigKey, unknown>> = {}): Partial<Record<ConfigKey, unknown>> => ({
  LDAP_URL: slapd.url,
  LDAP_BIND_DN: SERVICE_DN,
  LDAP_BIND_PASSWORD: SERVICE_PASSWORD,
  LDAP_SEARCH_BASE: PEOPLE,
  ...extra,
});

/** The sign_in_identities rows of the directory. */
const identities = (app: TestApp) =>
  app.services.deps.db.statements.all<{ subject: string; user_id: number; email: string }>(
    "SELECT subject, user_id, email FROM sign_in_identities WHERE provider = 'ldap' ORDER BY user_id",
  );
const passwordHashOf = async (app: TestApp, id: number) =>
  (await app.services.deps.db.statements.all<{ password_hash: string | null }>("SELECT password_hash FROM users WHERE id = ?", [id]))[0]!.password_hash;
const userCount = async (app: TestApp) => (await app.services.deps.db.statements.all<{ n: number }>("SELECT count(*) AS n FROM users"))[0]!.n;
const signIn = async (app: TestApp, login: string, password: string, address?: string) => {
  const res = await postLogin(app, login, password, "/", address);
  return { status: res.status, alert: alertOf(res.text), session: res.session, text: res.text };
};

describe.skipIf(missing !== null)("LDAP sign-in against slapd", () => {
  let t: TestApp;
  let adaDn = "";
  beforeAll(async () => {
    slapd = await startSlapd();
    adaDn = slapd.addPerson({ uid: "ada", password: "ada-directory-pw", cn: "A. Lovelace", sn: "Lovelace", mail: "ada@uni.example", displayName: "Ada Lovelace" });
    slapd.addPerson({ uid: "ben", password: "ben-directory-pw", cn: "Ben Franklin", sn: "Franklin", mail: "ben@uni.example" });
    slapd.addPerson({ uid: "rob", password: "rob-directory-pw", cn: "Rob Directory", sn: "Directory", mail: "rob@uni.example" });
    slapd.addPerson({ uid: "carol", password: "carol-directory-pw", cn: "Carol", sn: "C", mail: "carol@uni.example" });
    slapd.addPerson({ uid: "dan", password: "dan-directory-pw", cn: "Dan", sn: "D", mail: "dan@uni.example" });
    slapd.addPerson({ uid: "nomail", password: "nomail-directory-pw", cn: "No Mail", sn: "Mail" });
    t = await createTestApp(settings());
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.close();
  });

  test("a first sign-in makes a confirmed account from the entry, without a password; the subject is the entryUUID", async () => {
    const before = await userCount(t);
    const res = await signIn(t, "ada", "ada-directory-pw");
    expect({ status: res.status, alert: res.alert }).toEqual({ status: 303, alert: undefined });
    expect(await signedIn(t, `cairn_session=${res.session}`)).toBe(true);
    const ada = (await accountOf(t, "ada@uni.example"))!;
    expect(ada).toMatchObject({ email: "ada@uni.example", fullName: "Ada Lovelace", confirmedAt: t.clock.now(), active: true, isAdmin: false });
    expect(await userCount(t)).toBe(before + 1);
    expect(await passwordHashOf(t, ada.id)).toBeNull();
    expect(await identities(t)).toEqual([{ subject: slapd.entryUuid(adaDn), user_id: ada.id, email: "ada@uni.example" }]);
  });

  test("later sign-ins (by uid or mail, as the default filter allows) open the same account, each with a new session", async () => {
    const ada = (await accountOf(t, "ada@uni.example"))!;
    const before = await userCount(t);
    const byUid = await signIn(t, "ada", "ada-directory-pw");
    const byMail = await signIn(t, "ADA@uni.example", "ada-directory-pw");
    expect([byUid.status, byMail.status]).toEqual([303, 303]);
    expect(byUid.session).not.toBe(byMail.session);
    for (const s of [byUid.session!, byMail.session!]) expect((await t.services.sessions.resolve(s))?.actor.userId).toBe(ada.id);
    expect(await userCount(t)).toBe(before);
    expect(await passwordHashOf(t, ada.id)).toBeNull();
  });

  test("an entry renamed in the directory (a new DN, the same entryUUID) still opens its account", async () => {
    const ada = (await accountOf(t, "ada@uni.example"))!;
    slapd.rename(adaDn, "uid=ada.lovelace");
    adaDn = `uid=ada.lovelace,${PEOPLE}`;
    const res = await signIn(t, "ada.lovelace", "ada-directory-pw");
    expect(res.status).toBe(303);
    expect((await t.services.sessions.resolve(res.session!))?.actor.userId).toBe(ada.id);
    expect((await identities(t)).filter((i) => i.user_id === ada.id)).toHaveLength(1);
  });

  test("the password is never kept: with the directory down the right password opens nothing (502), and up again it does", async () => {
    await slapd.stop();
    try {
      const down = await signIn(t, "ada.lovelace", "ada-directory-pw");
      expect({ status: down.status, alert: down.alert, session: down.session }).toEqual({
        status: 502,
        alert: "Directory account cannot be reached at the moment: try again later.",
        session: undefined,
      });
      expect(down.text).toContain('<form class="card" method="post" action="/login">');
    } finally {
      await slapd.restart();
    }
    expect((await signIn(t, "ada.lovelace", "ada-directory-pw")).status).toBe(303);
  });

  test("a wrong password, an unknown login and an entry without mail: the one refusal, no account made", async () => {
    const before = await userCount(t);
    for (const [login, password] of [
      ["ben", "not-bens-password"],
      ["nobody", "whatever-password"],
    ]) {
      expect(await signIn(t, login!, password!)).toMatchObject({ status: 400, alert: GENERIC_REFUSAL, session: undefined });
    }
    const noMail = await signIn(t, "nomail", "nomail-directory-pw");
    expect({ status: noMail.status, session: noMail.session }).toEqual({ status: 400, session: undefined });
    expect(noMail.alert).toContain("Directory account did not sign you in: it did not give an e-mail address");
    expect(await userCount(t)).toBe(before);
  });

  test("a login that finds two entries (a shared mail) is nobody's: refused even with one of their passwords", async () => {
    slapd.addPerson({ uid: "twin1", password: "twin1-directory-pw", cn: "Twin One", sn: "One", mail: "twins@uni.example" });
    slapd.addPerson({ uid: "twin2", password: "twin2-directory-pw", cn: "Twin Two", sn: "Two", mail: "twins@uni.example" });
    expect(await signIn(t, "twins@uni.example", "twin1-directory-pw")).toMatchObject({ status: 400, alert: GENERIC_REFUSAL, session: undefined });
    expect(await accountOf(t, "twins@uni.example")).toBeNull();
  });

  test("an empty password is refused before any bind (the directory would take it as an anonymous bind)", async () => {
    expect(await signIn(t, "ben", "")).toMatchObject({ status: 400, alert: GENERIC_REFUSAL, session: undefined });
    expect(await accountOf(t, "ben@uni.example")).toBeNull();
  });

  test("filter injection: a login with * ( ) \\ matches only itself, literally", async () => {
    for (const login of ["be*", "*", "x)(uid=ben", "ben)(|(uid=*", "\\62en"]) {
      expect(await signIn(t, login, "ben-directory-pw")).toMatchObject({ status: 400, alert: GENERIC_REFUSAL, session: undefined });
    }
    expect(await accountOf(t, "ben@uni.example")).toBeNull();
    expect(escapeFilterValue("a*b(c)d\\e\0")).toBe("a\\2ab\\28c\\29d\\5ce\\00");
    expect((await signIn(t, "ben", "ben-directory-pw")).status).toBe(303);
  });

  test("directory failures count in the same throttle: after five, the sixth waits (429) even with the right password, and checks none", async () => {
    t.clock.advance(2 * HOUR);
    for (let i = 0; i < 5; i++) expect((await signIn(t, "dan", `wrong-${i}`)).status).toBe(400);
    const waiting = await signIn(t, "dan", "dan-directory-pw");
    expect(waiting.status).toBe(429);
    expect(waiting.alert).toContain("Too many failed sign-ins with this e-mail address or username");
    expect(await accountOf(t, "dan@uni.example")).toBeNull();
    t.clock.advance(HOUR + 1);
    expect((await signIn(t, "dan", "dan-directory-pw")).status).toBe(303);
  });

  test("per client address too: twenty failures from one address make the next wait, whatever its login", async () => {
    t.clock.advance(2 * HOUR);
    const address = "203.0.113.9";
    // (The service behind the form, to keep the test short.)
    for (let i = 0; i < 20; i++) expect(await t.services.sessions.signIn(`guess-${i}`, "wrong-password", address).catch((e: { status: number }) => e.status)).toBe(400);
    expect((await signIn(t, "carol", "carol-directory-pw", address)).status).toBe(429);
    expect(await accountOf(t, "carol@uni.example")).toBeNull();
    t.clock.advance(2 * HOUR);
  });

  test("a local account is tried first: its own password opens it; the directory's password for the same login opens the directory's account", async () => {
    const local = await t.services.users.createUser(systemActor, { email: "rob@example.net", username: "rob", password: "rob-local-password" });
    const byLocal = await signIn(t, "rob", "rob-local-password");
    expect(byLocal.status).toBe(303);
    expect((await t.services.sessions.resolve(byLocal.session!))?.actor.userId).toBe(local.id);
    const byDirectory = await signIn(t, "rob", "rob-directory-pw");
    expect(byDirectory.status).toBe(303);
    const directoryRob = (await accountOf(t, "rob@uni.example"))!;
    expect(directoryRob.id).not.toBe(local.id);
    expect((await t.services.sessions.resolve(byDirectory.session!))?.actor.userId).toBe(directoryRob.id);
  });

  test("a confirmed local account of the entry's address is linked (the directory vouches for it); an unconfirmed one is not (409)", async () => {
    const carol = await t.services.users.createUser(systemActor, { email: "carol@uni.example", password: "carol-local-password" });
    const res = await signIn(t, "carol", "carol-directory-pw");
    expect(res.status).toBe(303);
    expect((await t.services.sessions.resolve(res.session!))?.actor.userId).toBe(carol.id);
    expect((await identities(t)).find((i) => i.email === "carol@uni.example")?.user_id).toBe(carol.id);
    expect(await passwordHashOf(t, carol.id)).not.toBeNull();

    slapd.addPerson({ uid: "eve", password: "eve-directory-pw", cn: "Eve", sn: "E", mail: "eve@uni.example" });
    const squatter = await t.services.users.registerUser({ email: "eve@uni.example", password: "squatter-password", confirmed: false });
    const refused = await signIn(t, "eve", "eve-directory-pw");
    expect({ status: refused.status, session: refused.session }).toEqual({ status: 409, session: undefined });
    expect(refused.alert).toContain("An account with the e-mail address eve@uni.example exists already");
    expect((await identities(t)).some((i) => i.user_id === squatter.id)).toBe(false);
  });

  test("a deactivated account cannot sign in through the directory", async () => {
    slapd.addPerson({ uid: "gus", password: "gus-directory-pw", cn: "Gus", sn: "G", mail: "gus@uni.example" });
    expect((await signIn(t, "gus", "gus-directory-pw")).status).toBe(303);
    const gus = (await accountOf(t, "gus@uni.example"))!;
    await t.services.deps.db.statements.run("UPDATE users SET active = 0 WHERE id = ?", [gus.id]);
    const res = await signIn(t, "gus", "gus-directory-pw");
    expect({ status: res.status, alert: res.alert, session: res.session }).toEqual({ status: 403, alert: "This account is deactivated: it cannot sign in.", session: undefined });
  });

  test("with local passwords off (ACCOUNTS_LOCAL_LOGIN_ENABLED false) /login keeps the form for the directory, without the password links; directory people sign in, a local non-administrator's password opens nothing", async () => {
    const off = await createTestApp(settings({ ACCOUNTS_LOCAL_LOGIN_ENABLED: false, ACCOUNTS_REGISTERABLE: true, LDAP_TITLE: "University directory" }));
    try {
      const { html } = await loginForm(off);
      expect(html).toContain('name="password"');
      expect(html).toContain("Sign in with the username and password of your university directory.");
      expect(html).not.toContain('href="/lost-password"');
      expect(html).not.toContain('href="/signup"');
      const dan = await signIn(off, "dan", "dan-directory-pw");
      expect(dan.status).toBe(303);
      expect((await off.services.sessions.resolve(dan.session!))?.actor.userId).toBe((await accountOf(off, "dan@uni.example"))!.id);
      const local = await signIn(off, "bob", "bob-password");
      expect({ status: local.status, alert: local.alert, session: local.session }).toEqual({ status: 400, alert: GENERIC_REFUSAL, session: undefined });
      expect((await signIn(off, "admin", "admin-password")).status).toBe(303);
    } finally {
      await off.close();
    }
  });

  describe("groups (LDAP_SYNC_GROUPS)", () => {
    let g: TestApp;
    let fayDn = "";
    beforeAll(async () => {
      fayDn = slapd.addPerson({ uid: "fay", password: "fay-directory-pw", cn: "Fay", sn: "F", mail: "fay@uni.example", o: "Physics" });
      slapd.addGroup("staff", [fayDn]);
      slapd.addGroup("physics", [fayDn, `uid=dan,${PEOPLE}`]);
      g = await createTestApp(settings({ LDAP_SYNC_GROUPS: true, LDAP_ATTRIBUTES: { affiliation: "o" } }));
    });
    afterAll(() => g.close());

    const groupNames = async (userId: number) => {
      const all = await g.services.groups.listGroups(systemActor);
      const ids = await g.services.tokens.groupIdsOf(userId);
      return all
        .filter((x) => ids.includes(x.id))
        .map((x) => x.name)
        .sort();
    };

    test("memberOf's groups become memberships at each sign-in, and a group left in the directory is left here", async () => {
      expect((await signIn(g, "fay", "fay-directory-pw")).status).toBe(303);
      const fay = (await accountOf(g, "fay@uni.example"))!;
      expect(fay.affiliations).toBe("Physics");
      expect(await groupNames(fay.id)).toEqual(["physics", "staff"]);
      slapd.removeMember("physics", fayDn);
      expect((await signIn(g, "fay", "fay-directory-pw")).status).toBe(303);
      expect(await groupNames(fay.id)).toEqual(["staff"]);
    });

    test("without LDAP_SYNC_GROUPS no membership is made", async () => {
      expect((await signIn(t, "fay", "fay-directory-pw")).status).toBe(303);
      const fay = (await accountOf(t, "fay@uni.example"))!;
      expect(await t.services.tokens.groupIdsOf(fay.id)).toEqual([]);
    });
  });

  describe("TLS: StartTLS and ldaps:// trust the directory's CA only when told to", () => {
    for (const [what, extra] of [
      ["StartTLS", () => ({ LDAP_START_TLS: true })],
      ["ldaps://", () => ({ LDAP_URL: slapd.secureUrl })],
    ] as const) {
      test(`${what}: with LDAP_TLS_CA_FILE it signs in; without, the certificate is not trusted (502)`, async () => {
        const trusting = await createTestApp(settings({ ...extra(), LDAP_TLS_CA_FILE: slapd.caFile }));
        const untrusting = await createTestApp(settings(extra()));
        try {
          expect((await signIn(trusting, "dan", "dan-directory-pw")).status).toBe(303);
          const refused = await signIn(untrusting, "dan", "dan-directory-pw");
          expect({ status: refused.status, alert: refused.alert, session: refused.session }).toEqual({
            status: 502,
            alert: "Directory account cannot be reached at the moment: try again later.",
            session: undefined,
          });
        } finally {
          await trusting.close();
          await untrusting.close();
        }
      });
    }
  });

  test("StartTLS to a name the certificate does not show (localhost; it names 127.0.0.1): refused (502) though its CA is trusted", async () => {
    const misnamed = await createTestApp(settings({ LDAP_URL: slapd.url.replace("127.0.0.1", "localhost"), LDAP_START_TLS: true, LDAP_TLS_CA_FILE: slapd.caFile }));
    try {
      expect(await signIn(misnamed, "dan", "dan-directory-pw")).toMatchObject({ status: 502, session: undefined });
    } finally {
      await misnamed.close();
    }
  });

  test("a directory that refuses the service account, or none listening: a 502 page naming the problem, never a 500", async () => {
    const badService = await createTestApp(settings({ LDAP_BIND_PASSWORD: "not-the-service-password", LDAP_TITLE: "University directory" }));
    const nothing = await createTestApp(settings({ LDAP_URL: "ldap://127.0.0.1:1" }));
    try {
      const refused = await signIn(badService, "dan", "dan-directory-pw");
      expect({ status: refused.status, alert: refused.alert }).toEqual({
        status: 502,
        alert: "University directory sign-in is not working (the directory refused the service account LDAP_BIND_DN): tell the repository's administrators.",
      });
      const down = await signIn(nothing, "dan", "dan-directory-pw");
      expect({ status: down.status, alert: down.alert }).toEqual({ status: 502, alert: "Directory account cannot be reached at the moment: try again later." });
      // A local account still signs in while the directory is away.
      await nothing.services.users.createUser(systemActor, { email: "local@example.net", password: "local-password" });
      expect((await signIn(nothing, "local@example.net", "local-password")).status).toBe(303);
    } finally {
      await badService.close();
      await nothing.close();
    }
  });
});

describe("the LDAP settings are checked at start", () => {
  const load = (flags: Record<string, unknown>) => () => loadConfig({ flags: { DATA_DIR: "/tmp/cairn-ldap-config", LDAP_SEARCH_BASE: "dc=uni,dc=example", ...flags }, env: {} });

  test.each([
    [{ LDAP_URL: "http://ldap.example.org" }, "LDAP_URL must start with ldap:// or ldaps://"],
    [{ LDAP_URL: "ldap.example.org" }, "LDAP_URL is not a URL"],
    [{ LDAP_URL: "ldap://ldap.example.org/dc=uni,dc=example" }, "LDAP_URL is the server only"],
    [{ LDAP_URL: "ldaps://ldap.example.org", LDAP_START_TLS: true }, "LDAP_START_TLS is for ldap:// URLs"],
    [{ LDAP_URL: "ldap://ldap.example.org", LDAP_USER_FILTER: "(uid=alice)" }, "LDAP_USER_FILTER must contain {login}"],
    [{ LDAP_URL: "ldap://ldap.example.org", LDAP_USER_FILTER: "uid={login}" }, "LDAP_USER_FILTER must be a filter in parentheses"],
    [{ LDAP_URL: "ldap://ldap.example.org", LDAP_USER_FILTER: "(|(uid={login})(mail={login})" }, "LDAP_USER_FILTER has unbalanced parentheses"],
    [{ LDAP_URL: "ldap://ldap.example.org", LDAP_SEARCH_BASE: "" }, "LDAP_SEARCH_BASE is required"],
    [{ LDAP_URL: "ldap://ldap.example.org", LDAP_BIND_DN: "cn=cairn,dc=uni,dc=example" }, "LDAP_BIND_PASSWORD is required with LDAP_BIND_DN"],
    [{ LDAP_ATTRIBUTES: { mail: "mail" } }, "LDAP_ATTRIBUTES from the command line: mail is not one of email, name, affiliation, groups"],
    [{ LDAP_ATTRIBUTES: { email: "(mail)" } }, "LDAP_ATTRIBUTES from the command line: email must be an attribute name"],
    [{ LDAP_ATTRIBUTES: "not json" }, "LDAP_ATTRIBUTES from the command line: expected a JSON object"],
  ])("%p is refused", (flags, message) => {
    expect(load(flags)).toThrow(ConfigError);
    expect(load(flags)).toThrow(message);
  });

  test("the defaults, and a partial LDAP_ATTRIBUTES keeping the others", () => {
    const config = load({ LDAP_URL: "ldaps://ad.uni.example:636", LDAP_ATTRIBUTES: '{"affiliation": "company", "groups": ""}' })();
    expect(config.LDAP_USER_FILTER).toBe("(|(uid={login})(mail={login}))");
    expect(config.LDAP_ATTRIBUTES).toEqual({ email: "mail", name: "displayName", affiliation: "company", groups: "" });
    expect(load({})().LDAP_URL).toBe("");
  });

  test("a group DN's first RDN value names the group, its escapes undone", () => {
    expect(firstRdnValue("CN=Staff\\2C Physics,OU=Groups,DC=uni,DC=example")).toBe("Staff, Physics");
    expect(firstRdnValue("cn=Caf\\C3\\A9 \\+ Co,ou=groups")).toBe("Café + Co");
    expect(firstRdnValue("plain-name")).toBe("plain-name");
  });

  test("Active Directory's objectGUID bytes (the first three fields little-endian) in the usual text form", () => {
    expect(guidText(Buffer.from("e004253f894fd3119a0c0305e82c3301", "hex"))).toBe("3f2504e0-4f89-11d3-9a0c-0305e82c3301");
  });
});
