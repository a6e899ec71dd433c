// What every page route shares: the HTML response with its security headers, redirects, the
// forms' CSRF check, and turning a service's HttpError into an HTML error page.
import type { Actor } from "../core/actor";
import { cookieOf } from "../core/http";
import { newSecret } from "../core/ids";
import { forbidden, httpErrorOf, type FieldError } from "../core/errors";
import type { Node } from "./jsx-runtime";
import { renderPage } from "./render";

/**
 * Pages load only their own scripts, styles and images; nothing from elsewhere, no inline
 * scripts (JSON-LD is data, which browsers do not run). Same-origin frames show PDF previews.
 */
export const PAGE_CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'";

/** An HTML page; `headers` add to (or replace) the page's own. */
export function htmlResponse(node: Node, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(renderPage(node), {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": PAGE_CONTENT_SECURITY_POLICY,
      "Cache-Control": "no-store",
      "Referrer-Policy": "same-origin",
      "X-Frame-Options": "SAMEORIGIN",
      ...headers,
    },
  });
}

/** 303 See Other: after a form, the browser GETs the next page. */
export const seeOther = (location: string, headers: Record<string, string> = {}) => new Response(null, { status: 303, headers: { Location: location, ...headers } });

/** A form's fields (the hooks parse `application/x-www-form-urlencoded` for the page routes that take forms). */
export function formOf(body: unknown): URLSearchParams {
  if (body instanceof URLSearchParams) return body;
  return new URLSearchParams();
}

/** 403 unless the form carries the session's CSRF token (signed-in forms). */
export function checkCsrf(actor: Actor, form: URLSearchParams): void {
  if (!actor.csrf || form.get("csrf") !== actor.csrf) throw forbidden("The form has expired or did not come from this site: reload the page and try again.");
}

/** A cookie of the pages: HttpOnly, SameSite=Lax, Secure when the site is reached over HTTPS. */
export const cookie = (https: boolean, name: string, value: string, maxAgeSeconds: number) =>
  `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${https ? "; Secure" : ""}`;

/**
 * Forms sent before there is a session (sign-in, sign-up, a forgotten password, a mailed link's
 * button) carry a token that must equal a cookie of their own: another site can make a browser
 * post, but cannot read or set this site's cookie.
 */
const GUEST_CSRF_COOKIE = "cairn_login_csrf";

/** A new guest form token and the cookie that holds it (an hour). */
export function guestCsrf(https: boolean): { csrf: string; setCookie: string } {
  const csrf = newSecret();
  return { csrf, setCookie: cookie(https, GUEST_CSRF_COOKIE, csrf, 3600) };
}

/** The cookie that ends the guest form token (after the form did its work). */
export const endGuestCsrf = (https: boolean) => cookie(https, GUEST_CSRF_COOKIE, "", 0);

/** True when the form carries the guest CSRF cookie's token. */
export function guestCsrfOk(request: Request, form: URLSearchParams): boolean {
  const expected = cookieOf(request, GUEST_CSRF_COOKIE);
  return Boolean(expected) && form.get("csrf") === expected;
}

/** Stands for this site when resolving a path: only the origin's sameness matters. */
const SELF = "http://cairn.invalid";

/**
 * The one reading of a `next` parameter (where to go after signing in): a path of this site, or
 * `fallback`. Browsers drop tabs and line breaks from a URL and read `\` as `/`, so `/<tab>/host`
 * or `/\host` would leave the site: any control character or backslash is refused outright, and
 * the path must still be this origin's once resolved. The answer is the URL parser's own
 * serialization, percent-encoded ASCII, so a Location header always takes it.
 */
export function localPath(next: string | null | undefined, fallback = "/"): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || /[\u0000-\u001f\u007f-\u009f\\]/.test(next)) return fallback;
  let url: URL;
  try {
    url = new URL(next, SELF);
  } catch {
    return fallback;
  }
  const path = url.pathname + url.search + url.hash;
  // Dot segments can leave a path starting with `//` (`/.//host`), which a browser reads as another host.
  return url.origin === SELF && !path.startsWith("//") ? path : fallback;
}

/**
 * A service's refusal of what a form sent (a 400 with field errors, a 429 asking to wait) as the
 * messages to show with the form again, its status and headers; null for anything else.
 */
export function formRefusal(thrown: unknown): { errors: FieldError[]; status: number; headers: Record<string, string> } | null {
  const error = httpErrorOf(thrown);
  if (!error) return null;
  if (error.status === 400 && error.errors) return { errors: error.errors, status: 400, headers: {} };
  // A 429 keeps its Retry-After.
  if (error.status === 429) return { errors: [{ field: "form", messages: [error.message] }], status: 429, headers: error.headers };
  return null;
}

/** A service's refusal as a status and a message for an error page; other errors go on to the app's handler. */
export function pageError(thrown: unknown): { status: number; message: string; tombstone?: Record<string, any> } {
  const error = httpErrorOf(thrown);
  if (error) return { status: error.status, message: error.message, tombstone: error.extra.tombstone as Record<string, any> | undefined };
  throw thrown;
}
