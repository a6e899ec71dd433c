// Signing in through a SAML 2.0 IdP: /saml/login/{name} sends the browser to the IdP with an
// AuthnRequest, /saml/authorized/{name} is the ACS (POST) and the way back in (GET), and
// /saml/metadata/{name} is Cairn's SP metadata to register at the IdP. The flow itself is the
// accounts area's (accounts/saml.ts). A refusal is an error page with its 4xx status.
//
// The browser binding: the IdP's page posts the response to the ACS from the IdP's site, and a
// browser sends no SameSite=Lax cookie with a cross-site POST, so the ACS cannot tell which
// browser it is talking to. It checks everything else (signature, audience, times, destination,
// recipient, a live request of Cairn's, the assertion not seen before), then answers 303 to
// GET /saml/authorized/{name}?code=… — a top-level GET navigation, which does carry Lax cookies.
// That GET takes the request (one use) only with the cookie /saml/login set in the browser that
// started it, and only then signs in. The code is sealed by Cairn (the browser can neither read nor
// change it) and lives two minutes; someone else's code in this browser finds no request of its own.
// A request started by Link on the linked-accounts page (linked-accounts.tsx) ends there instead:
// the identity linked to the person who started it, if still the one signed in; no session changes.
import { Elysia } from "elysia";
import { SAML_REQUEST_MS } from "../accounts/saml";
import { PENDING_LINK_MS } from "../accounts/external";
import { cookieOf, SESSION_COOKIE, type ActorContext } from "../core/http";
import { pageContextOf, renderOrError, type PagesDeps } from "./context";
import { cookie, formOf, localPath } from "./http";
import { mailedSignInStep } from "./oauth";
import { linkedLocation, PENDING_LINK_COOKIE, PENDING_LINK_PATH, SAML_BROWSER_COOKIE } from "./linked-accounts";

/** As long as a password sign-in's cookie (the session's own expiry ends it sooner when unused). */
const SESSION_COOKIE_MAX_AGE_S = 30 * 86_400;

const pathOf = (name: string) => `/saml/authorized/${encodeURIComponent(name)}`;

export const samlPages = (http: ActorContext, deps: PagesDeps) =>
  new Elysia()
    .use(http)
    .get("/saml/login/:name", async ({ actor, request, params, query }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const next = localPath(typeof query.next === "string" ? query.next : null);
        const { url, browserSecret } = await deps.services.saml.beginSignIn(params.name, next);
        const headers = { Location: url, "Cache-Control": "no-store", "Set-Cookie": cookie(deps.https, SAML_BROWSER_COOKIE, browserSecret, SAML_REQUEST_MS / 1000) };
        return new Response(null, { status: 303, headers });
      });
    })
    .post("/saml/authorized/:name", async ({ actor, request, params, body }) => {
      // No CSRF token: the IdP's page posts this. The signed response and the request it must answer stand in for one.
      const ctx = await pageContextOf(deps, actor, new Request(new URL(pathOf(params.name), request.url).href));
      return renderOrError(ctx, async () => {
        const { code } = await deps.services.saml.acceptResponse(params.name, formOf(body).get("SAMLResponse"));
        return new Response(null, { status: 303, headers: { Location: `${pathOf(params.name)}?code=${code}`, "Cache-Control": "no-store" } });
      });
    })
    .get("/saml/authorized/:name", async ({ actor, request, params, query, server }) => {
      // The page never echoes the code (the layout's sign-in link names the current address).
      const ctx = await pageContextOf(deps, actor, new Request(new URL(pathOf(params.name), request.url).href));
      return renderOrError(ctx, async () => {
        const code = typeof query.code === "string" ? query.code : "";
        const returning = {
          userId: actor.kind === "user" ? actor.userId : null,
          address: deps.services.sessions.throttleAddressOf(request, server),
          client: deps.services.sessions.clientOf(request, server),
        };
        const done = await deps.services.saml.finishSignIn(params.name, code, cookieOf(request, SAML_BROWSER_COOKIE) ?? null, returning);
        const endSignIn = cookie(deps.https, SAML_BROWSER_COOKIE, "", 0);
        if (done.kind === "check-mail") {
          const res = mailedSignInStep(deps, ctx, done.email, done.ticket, "To finish signing in, open (in this browser) the link we sent to");
          res.headers.append("Set-Cookie", endSignIn);
          return res;
        }
        const headers = new Headers({ "Cache-Control": "no-store" });
        if (done.kind === "linked") {
          // A link from the settings: back to them; the session stays as it is.
          headers.set("Location", linkedLocation(done.provider));
        } else if (done.kind === "link-first") {
          headers.set("Location", PENDING_LINK_PATH);
          headers.append("Set-Cookie", cookie(deps.https, PENDING_LINK_COOKIE, done.ticket, PENDING_LINK_MS / 1000));
        } else {
          // A new session: the browser's old one (if any) ends first.
          const old = cookieOf(request, SESSION_COOKIE);
          if (old) await deps.services.sessions.signOut(old);
          headers.set("Location", done.next);
          headers.append("Set-Cookie", cookie(deps.https, SESSION_COOKIE, done.secret, SESSION_COOKIE_MAX_AGE_S));
        }
        headers.append("Set-Cookie", endSignIn);
        return new Response(null, { status: 303, headers });
      });
    })
    .get("/saml/metadata/:name", async ({ actor, request, params }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const xml = await deps.services.saml.spMetadata(params.name);
        return new Response(xml, { headers: { "Content-Type": "application/samlmetadata+xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
      });
    });

/** The routes of this file that take forms (the hooks parse their bodies): the ACS. */
export const SAML_FORM_ROUTES = ["POST /saml/authorized/:name"];
