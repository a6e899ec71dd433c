// Signing in over HTTP without a browser: raw requests with cookies, forms and a client address,
// the login form's CSRF pair, and the form posted.
import { expect } from "bun:test";
import { withClientAddress } from "../../src/core/client-address";
import { BASE_URL, type TestApp } from "./app";

export interface Raw {
  cookie?: string;
  form?: Record<string, string>;
  json?: unknown;
  headers?: Record<string, string>;
  /** The client's address, as the server's socket would report it (none: an in-process call, not counted by address). */
  address?: string;
}

/** One request through the app, with a cookie header, a form or a JSON body. */
export async function raw(app: TestApp, method: string, path: string, options: Raw = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | undefined;
  if (options.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  const request = new Request(BASE_URL + path, { method, headers, body });
  const response = await app.app.handle(options.address ? withClientAddress(request, options.address) : request);
  return { status: response.status, headers: response.headers, text: await response.text(), cookies: response.headers.getSetCookie() };
}

/** The value a Set-Cookie list gives `name` ("" when cleared), or undefined when not set. */
export const cookieValue = (cookies: string[], name: string) => {
  const line = cookies.find((c) => c.startsWith(`${name}=`));
  return line === undefined ? undefined : decodeURIComponent(line.slice(name.length + 1).split(";")[0]!);
};

/** GET /login: the login-form CSRF cookie and the same value in the form's hidden field. */
export async function loginForm(app: TestApp, query = "", address?: string) {
  const res = await raw(app, "GET", `/login${query}`, { address });
  expect(res.status).toBe(200);
  const cookie = cookieValue(res.cookies, "cairn_login_csrf")!;
  const field = /name="csrf" value="([^"]+)"/.exec(res.text)?.[1];
  expect(field).toBe(cookie);
  return { cookie, field: field!, html: res.text };
}

export type LoginForm = Awaited<ReturnType<typeof loginForm>>;

/** Posts a login form fetched before; returns the answer and the session cookie's secret (when one was set). */
export async function submitLogin(app: TestApp, form: LoginForm, login: string, password: string, next = "/", address?: string) {
  const res = await raw(app, "POST", "/login", { cookie: `cairn_login_csrf=${form.cookie}`, form: { csrf: form.field, login, password, next }, address });
  return { ...res, session: cookieValue(res.cookies, "cairn_session") };
}

/** Signs in through the form (fetched first); returns the answer and the session cookie's secret (when one was set). */
export async function postLogin(app: TestApp, login: string, password: string, next = "/", address?: string) {
  return submitLogin(app, await loginForm(app, "", address), login, password, next, address);
}

/** The alert a refused login page shows. */
export const alertOf = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1]?.trim();
