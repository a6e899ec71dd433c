// The account pages over HTTP as a person uses them without a browser: a guest form fetched
// (its CSRF cookie and field), posted; a mailed link read from the test SMTP server and followed
// (its page, then its button's form); signing in and the session's own form token.
import { expect } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { BASE_URL, type TestApp } from "./app";
import { cookieValue, postLogin, raw } from "./sign-in";
import { linkIn, type TestSmtp } from "./smtp";

/** GET a page with a guest form: the `cairn_login_csrf` cookie (as a Cookie header) and the form's same token. */
export async function guestForm(app: TestApp, path: string) {
  const res = await raw(app, "GET", path);
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  const value = cookieValue(res.cookies, "cairn_login_csrf");
  const field = /name="csrf" value="([^"]+)"/.exec(res.text)?.[1];
  expect(value).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  expect(field).toBe(value!);
  return { cookie: `cairn_login_csrf=${value}`, csrf: field!, html: res.text };
}

/** Fetches the form at `page`, then posts `fields` (with its CSRF token) to `action` (default: the page's path). */
export async function postGuestForm(app: TestApp, page: string, fields: Record<string, string>, action = page.split("?")[0]!) {
  const form = await guestForm(app, page);
  return raw(app, "POST", action, { cookie: form.cookie, form: { csrf: form.csrf, ...fields } });
}

/** Delivers the outbox over SMTP and answers the messages the server has received for `address`. */
export async function mailTo(app: TestApp, smtp: TestSmtp, address: string) {
  await app.services.mail.deliverPending();
  return smtp.to(address);
}

/** The link to `path` in the last message to `address` (delivering the outbox first). */
export async function lastLink(app: TestApp, smtp: TestSmtp, address: string, path: string) {
  const messages = await mailTo(app, smtp, address);
  expect(messages.length).toBeGreaterThan(0);
  return linkIn(messages.at(-1)!, BASE_URL, path);
}

/** A mailed link's page as a browser opens it: GET, then its form (action, hidden token, CSRF pair). */
export async function openLink(app: TestApp, link: string) {
  const url = new URL(link);
  expect(url.origin).toBe(BASE_URL);
  const page = await raw(app, "GET", url.pathname + url.search);
  const action = /<form class="card" method="post" action="([^"]+)"/.exec(page.text)?.[1];
  const token = /name="token" value="([^"]*)"/.exec(page.text)?.[1];
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1];
  const cookie = cookieValue(page.cookies, "cairn_login_csrf");
  return { page, action, token, csrf, cookie: cookie === undefined ? undefined : `cairn_login_csrf=${cookie}` };
}

/** Opens the link and presses its button (extra fields: the new password of a reset). */
export async function useLink(app: TestApp, link: string, fields: Record<string, string> = {}) {
  const opened = await openLink(app, link);
  expect(opened.page.status).toBe(200);
  return raw(app, "POST", opened.action!, { cookie: opened.cookie, form: { csrf: opened.csrf!, token: opened.token!, ...fields } });
}

/** The `?token=` of a mailed link. */
export const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

/** Signs in through the login form; the session's Cookie header. */
export async function sessionCookie(app: TestApp, login: string, password: string) {
  const res = await postLogin(app, login, password);
  expect({ status: res.status, alert: /role="alert">([^<]*)</.exec(res.text)?.[1] }).toEqual({ status: 303, alert: undefined });
  return `cairn_session=${res.session}`;
}

/** Whether a session cookie still signs in (the REST API's own-records list answers 200, else 401). */
export async function signedIn(app: TestApp, cookie: string): Promise<boolean> {
  const status = (await raw(app, "GET", "/api/user/records", { cookie })).status;
  expect([200, 401]).toContain(status);
  return status === 200;
}

/** The session's CSRF token as a signed-in page's form carries it. */
export async function sessionCsrf(app: TestApp, cookie: string, path: string) {
  const res = await raw(app, "GET", path, { cookie });
  expect(res.status).toBe(200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(res.text)?.[1];
  expect(csrf).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  return csrf!;
}

/** A person signed in through the login form (password `{login}-password`): the cookie and the CSRF token its forms carry. */
export async function pageSession(app: TestApp, login: string): Promise<{ cookie: string; csrf: string }> {
  const cookie = await sessionCookie(app, login, `${login}-password`);
  return { cookie, csrf: await sessionCsrf(app, cookie, "/account/settings/profile") };
}

/** The stored account with this address (or null). */
export const accountOf = (app: TestApp, email: string) => app.services.users.findUserByEmail(systemActor, email);

/** The messages under a form field (`<p class="field-error" id="field-<name>-error">`). */
export const fieldError = (html: string, field: string) => new RegExp(`id="field-${field}-error">([^<]*)<`).exec(html)?.[1];

/** The page's alert (a refused form's general message). */
export const alertOf = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1]?.trim();

/** The page's status notice. */
export const noticeOf = (html: string) =>
  /role="status">([\s\S]*?)<\/p>/
    .exec(html)?.[1]
    ?.replace(/<[^>]+>/g, "")
    .trim();
