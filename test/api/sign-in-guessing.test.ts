// Password guessing slowed, never the owner locked out: waits per login name (known or not, the
// same answers) and per client address, counted before the check so that bursts sent at once get
// no more checks; API tokens unaffected; and the races of the sign-in path.
import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { withClientAddress } from "../../src/core/client-address";
import { FORGET_MS } from "../../src/sessions/throttle";
import { createTestApp, type TestApp } from "../helpers/app";
import { alertOf, loginForm, postLogin, submitLogin } from "../helpers/sign-in";

let app: TestApp;
let verify: ReturnType<typeof spyOn<typeof Bun.password, "verify">>;
beforeEach(async () => {
  app = await createTestApp();
  verify = spyOn(Bun.password, "verify");
});
afterEach(async () => {
  verify.mockRestore();
  await app.close();
});

const NAME_WAIT = "Too many failed sign-ins with this e-mail address or username: try again in";
const ADDRESS_WAIT = "Too many failed sign-ins from this network address: try again in";
type Answer = Awaited<ReturnType<typeof postLogin>>;
const summary = (res: Answer) => ({ status: res.status, retryAfter: res.headers.get("retry-after"), alert: alertOf(res.text), session: res.session });

describe("a burst sent at once", () => {
  test("40 wrong passwords and then the right one: five checks, the right one refused while the name waits", async () => {
    const forms = await Promise.all(Array.from({ length: 41 }, () => loginForm(app)));
    verify.mockClear();
    const answers = await Promise.all(forms.map((form, i) => submitLogin(app, form, "bob", i < 40 ? "not-the-password" : "bob-password")));
    expect(verify).toHaveBeenCalledTimes(5);
    expect(answers.filter((a) => a.status === 400).length).toBe(5);
    expect(answers.filter((a) => a.status === 429).length).toBe(36);
    expect(summary(answers[40]!)).toEqual({ status: 429, retryAfter: "60", alert: `${NAME_WAIT} 60 seconds.`, session: undefined });
    // A second burst right after: nothing is checked at all.
    const again = await Promise.all(Array.from({ length: 40 }, () => postLogin(app, "bob", "not-the-password")));
    expect(again.map((a) => a.status)).toEqual(Array(40).fill(429));
    expect(verify).toHaveBeenCalledTimes(5);
    // The owner, once the wait is over.
    app.clock.advance(60_000);
    expect((await postLogin(app, "bob", "bob-password")).status).toBe(303);
  });
});

describe("per login name, known or not", () => {
  /** An answer with what differs by nature taken out: the login typed, and the fresh form token. */
  const comparable = (res: Answer, login: string) => ({
    status: res.status,
    headers: [...res.headers].filter(([name]) => name !== "set-cookie"),
    cookies: res.cookies.map((c) => c.replace(/=[^;]*/, "=…")),
    body: res.text.replaceAll(login, "…").replace(/value="[A-Za-z0-9_-]{43}"/g, 'value="…"'),
  });

  test("an unknown name and an account answer alike, failure after failure, and both are checked alike", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      verify.mockClear();
      const known = await postLogin(app, "alice", "wrong-password");
      const knownChecks = verify.mock.calls.length;
      verify.mockClear();
      const unknown = await postLogin(app, "nobody-here", "wrong-password");
      expect(verify.mock.calls.length).toBe(knownChecks);
      expect(comparable(unknown, "nobody-here")).toEqual(comparable(known, "alice"));
      statuses.push(known.status);
      if (i === 6) expect(summary(known)).toEqual({ status: 429, retryAfter: "60", alert: `${NAME_WAIT} 60 seconds.`, session: undefined });
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
  });

  test("the waits double from a minute to a quarter of an hour; the owner signs in once one has passed", async () => {
    for (let i = 0; i < 5; i++) expect((await postLogin(app, "bob", "not-the-password")).status).toBe(400);
    const waits: string[] = [];
    for (let i = 0; i < 6; i++) {
      const refused = await postLogin(app, "bob", "not-the-password");
      expect(refused.status).toBe(429);
      waits.push(refused.headers.get("retry-after")!);
      app.clock.advance(Number(refused.headers.get("retry-after")) * 1000);
      expect((await postLogin(app, "bob", "not-the-password")).status).toBe(400);
    }
    expect(waits).toEqual(["60", "120", "240", "480", "900", "900"]);
    expect(summary(await postLogin(app, "bob", "bob-password"))).toEqual({ status: 429, retryAfter: "900", alert: `${NAME_WAIT} 15 minutes.`, session: undefined });
    // The owner is only slowed, never kept out: after the wait the right password signs in, and the count starts again.
    app.clock.advance(900_000);
    expect((await postLogin(app, "bob", "bob-password")).status).toBe(303);
    for (let i = 0; i < 5; i++) expect((await postLogin(app, "bob", "not-the-password")).status).toBe(400);
  });

  test("while a name waits, the account's API tokens keep working; set-password lifts the wait", async () => {
    for (let i = 0; i < 5; i++) await postLogin(app, "bob", "not-the-password");
    expect((await postLogin(app, "bob", "bob-password")).status).toBe(429);
    expect((await app.call("GET", "/api/user/records", { as: "bob" })).status).toBe(200);
    await app.services.sessions.setPassword(systemActor, "bob@example.org", "a-new-password");
    expect((await postLogin(app, "bob", "a-new-password")).status).toBe(303);
  });

  test("a count left alone for an hour starts again, and the daily clean-up deletes it", async () => {
    for (let i = 0; i < 5; i++) await postLogin(app, "nobody-here", "wrong-password");
    expect((await postLogin(app, "nobody-here", "wrong-password")).status).toBe(429);
    app.clock.advance(FORGET_MS);
    expect(await app.services.sessions.deleteForgottenThrottles()).toBe(1);
    for (let i = 0; i < 5; i++) expect((await postLogin(app, "nobody-here", "wrong-password")).status).toBe(400);
  });
});

describe("per client address", () => {
  const attempts = (address: string, from: number, count: number) =>
    Promise.all(Array.from({ length: count }, (_, i) => postLogin(app, `guess-${from + i}`, "wrong-password", "/", address)));

  test("a burst of names from one address: twenty checks, then waits from a second, doubling; other addresses unaffected", async () => {
    const burst = await attempts("203.0.113.7", 0, 30);
    expect(burst.filter((a) => a.status === 400).length).toBe(20);
    const refused = burst.filter((a) => a.status === 429);
    expect(refused.length).toBe(10);
    expect(summary(refused[0]!)).toEqual({ status: 429, retryAfter: "1", alert: `${ADDRESS_WAIT} 1 second.`, session: undefined });
    // The right password from there waits too; from elsewhere it is checked.
    expect((await postLogin(app, "alice", "alice-password", "/", "203.0.113.7")).status).toBe(429);
    expect((await postLogin(app, "alice", "alice-password", "/", "198.51.100.9")).status).toBe(303);
    app.clock.advance(1000);
    expect((await attempts("203.0.113.7", 100, 1))[0]!.status).toBe(400);
    expect((await attempts("203.0.113.7", 101, 1))[0]!.headers.get("retry-after")).toBe("2");
  });

  test("the address counted: an IPv6 network (/64) as one; loopback and in-process calls not at all", () => {
    const addressOf = (address: string | null) => {
      const request = new Request("http://127.0.0.1:5000/login", { method: "POST" });
      return app.services.sessions.throttleAddressOf(address === null ? request : withClientAddress(request, address), null);
    };
    expect(addressOf("2001:db8:1:2::5")).toBe("2001:db8:1:2::/64");
    expect(addressOf("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressOf("1::2:3:4:5:192.0.2.1")).toBe("1:0:2:3::/64");
    expect(addressOf("203.0.113.7")).toBe("203.0.113.7");
    expect(addressOf("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressOf("127.0.0.1")).toBeNull();
    expect(addressOf("::1")).toBeNull();
    expect(addressOf(null)).toBeNull();
  });

  test("sign-ins that succeed take their attempt back: people sharing an address are not slowed by signing in", async () => {
    expect((await attempts("192.0.2.50", 0, 19)).map((a) => a.status)).toEqual(Array(19).fill(400));
    expect((await postLogin(app, "alice", "alice-password", "/", "192.0.2.50")).status).toBe(303);
    expect((await postLogin(app, "bob", "bob-password", "/", "192.0.2.50")).status).toBe(303);
    expect((await attempts("192.0.2.50", 19, 1))[0]!.status).toBe(400);
    expect((await attempts("192.0.2.50", 20, 1))[0]!.status).toBe(429);
  });
});

describe("races of the sign-in path", () => {
  test("a password set anew while the old one is being checked opens no session", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The account is read before the check starts (asynchronously): wait for the check, not for time.
    let checking!: () => void;
    const checkStarted = new Promise<void>((resolve) => (checking = resolve));
    verify.mockRestore();
    const real = Bun.password.verify.bind(Bun.password);
    verify = spyOn(Bun.password, "verify").mockImplementation(async (...args) => {
      checking();
      await gate;
      return real(...args);
    });
    const signingIn = app.services.sessions.signIn("alice", "alice-password").then(
      () => "signed in",
      (error: { status?: number }) => error.status,
    );
    await checkStarted;
    expect(verify).toHaveBeenCalledTimes(1);
    await app.services.sessions.setPassword(systemActor, "alice", "a-new-password");
    release();
    expect(await signingIn).toBe(400);
    expect((await postLogin(app, "alice", "a-new-password")).status).toBe(303);
  });
});
