// Signing in through an OpenID Connect provider (InvenioRDM's paths): /oauth/login/{name} sends the
// browser to the provider, /oauth/authorized/{name} is where it comes back; for a provider that
// gives no e-mail address (ORCID), /oauth/signup/{name} asks for one and /oauth/confirm is the
// mailed link (a page with a button: mail scanners that fetch links do not use it up; an untrusted
// provider's new address gets it at once); an address that is an existing account's goes to
// /oauth/link (linked-accounts.tsx) to sign in to it. The flow itself is the accounts area's
// (accounts/oidc.ts). A refusal is an error page with its 4xx status.
import { Elysia } from "elysia";
import { EMAIL_LINK_MS, EMAIL_STEP_MS } from "../accounts/oidc-email";
import { PENDING_LINK_MS } from "../accounts/external";
import { PENDING_SIGN_IN_MS } from "../accounts/oidc";
import type { FieldError } from "../core/errors";
import { cookieOf, SESSION_COOKIE, type ActorContext } from "../core/http";
import { pageContextOf, renderOrError, type PagesDeps } from "./context";
import { CheckYourMail, EXPIRED_FORM, FormAlert, LinkButtonPage, withGuestForm, EmailForm } from "./guest-forms";
import { cookie, endGuestCsrf, formOf, formRefusal, guestCsrfOk, htmlResponse, localPath } from "./http";
import { Layout, type PageContext } from "./layout";
import { linkedLocation, PENDING_LINK_COOKIE, PENDING_LINK_PATH, SIGN_IN_BROWSER_COOKIE } from "./linked-accounts";

/** Carries a first sign-in that waits for its e-mail address (ORCID) in the browser that came back. */
const EMAIL_STEP_COOKIE = "cairn_oauth_signup";

/**
 * "Check your mail" after a sign-in's e-mail step (OpenID Connect and SAML alike; or what to do
 * instead when mail is off), with the ticket that binds the mailed link to this browser, kept as
 * long as the link works.
 */
export function mailedSignInStep(deps: PagesDeps, ctx: PageContext, email: string, ticket: string, what: string): Response {
  const res = htmlResponse(
    <CheckYourMail ctx={ctx} deps={deps} email={email} what={what} instead="Signing in cannot be finished this way: ask the repository's administrators for help." />,
  );
  res.headers.append("Set-Cookie", cookie(deps.https, EMAIL_STEP_COOKIE, ticket, EMAIL_LINK_MS / 1000));
  return res;
}
/** As long as a password sign-in's cookie (the session's own expiry ends it sooner when unused). */
const SESSION_COOKIE_MAX_AGE_S = 30 * 86_400;

/** 303 to `next` with the new session's cookie (and `clear`, a cookie ending the flow's); the browser's old session (if any) ended first. */
async function signedIn(deps: PagesDeps, request: Request, secret: string, next: string, clear: string): Promise<Response> {
  const old = cookieOf(request, SESSION_COOKIE);
  if (old) await deps.services.sessions.signOut(old);
  const headers = new Headers({ Location: next, "Cache-Control": "no-store" });
  headers.append("Set-Cookie", cookie(deps.https, SESSION_COOKIE, secret, SESSION_COOKIE_MAX_AGE_S));
  headers.append("Set-Cookie", clear);
  return new Response(null, { status: 303, headers });
}

function EmailStepPage({ ctx, csrf, name, fullName, email, errors }: { ctx: PageContext; csrf: string; name: string; fullName: string; email?: string; errors?: FieldError[] }) {
  return (
    <Layout ctx={ctx} title="Your e-mail address">
      <h1>Your e-mail address</h1>
      <p>{fullName ? `Welcome, ${fullName}. ` : ""}Your provider does not tell us your e-mail address: give it here, and open the link we mail to it to finish signing in.</p>
      <FormAlert errors={errors} />
      <EmailForm csrf={csrf} action={`/oauth/signup/${name}`} label="E-mail address" button="Send the link" email={email} errors={errors} />
    </Layout>
  );
}

export const oauthPages = (http: ActorContext, deps: PagesDeps) =>
  new Elysia()
    .use(http)
    .get("/oauth/login/:name", async ({ actor, request, params, query }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const next = localPath(typeof query.next === "string" ? query.next : null);
        const { url, browserSecret } = await deps.services.oidc.beginSignIn(params.name, next);
        const headers = { Location: url, "Cache-Control": "no-store", "Set-Cookie": cookie(deps.https, SIGN_IN_BROWSER_COOKIE, browserSecret, PENDING_SIGN_IN_MS / 1000) };
        return new Response(null, { status: 302, headers });
      });
    })
    .get("/oauth/authorized/:name", async ({ actor, request, params, server }) => {
      // The page never echoes the code or state (the layout's sign-in link names the current address).
      const ctx = await pageContextOf(deps, actor, new Request(new URL(`/oauth/authorized/${encodeURIComponent(params.name)}`, request.url).href));
      return renderOrError(ctx, async () => {
        const query = new URL(request.url).searchParams;
        const returning = {
          userId: actor.kind === "user" ? actor.userId : null,
          address: deps.services.sessions.throttleAddressOf(request, server),
          client: deps.services.sessions.clientOf(request, server),
        };
        const done = await deps.services.oidc.finishSignIn(params.name, query, cookieOf(request, SIGN_IN_BROWSER_COOKIE) ?? null, returning);
        const endSignIn = cookie(deps.https, SIGN_IN_BROWSER_COOKIE, "", 0);
        if (done.kind === "session") return signedIn(deps, request, done.secret, done.next, endSignIn);
        if (done.kind === "check-mail") {
          const res = mailedSignInStep(deps, ctx, done.email, done.ticket, "To finish signing in, open (in this browser) the link we sent to");
          res.headers.append("Set-Cookie", endSignIn);
          return res;
        }
        const [location, set] =
          done.kind === "linked"
            ? [linkedLocation(done.provider), null]
            : done.kind === "link-first"
              ? [PENDING_LINK_PATH, cookie(deps.https, PENDING_LINK_COOKIE, done.ticket, PENDING_LINK_MS / 1000)]
              : [`/oauth/signup/${params.name}`, cookie(deps.https, EMAIL_STEP_COOKIE, done.ticket, EMAIL_STEP_MS / 1000)];
        const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
        if (set) headers.append("Set-Cookie", set);
        headers.append("Set-Cookie", endSignIn);
        return new Response(null, { status: 303, headers });
      });
    })
    .get("/oauth/signup/:name", async ({ actor, request, params }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const { fullName } = await deps.services.oidc.checkEmailStep(params.name, cookieOf(request, EMAIL_STEP_COOKIE));
        return withGuestForm(deps, (csrf) => <EmailStepPage ctx={ctx} csrf={csrf} name={params.name} fullName={fullName} />);
      });
    })
    .post("/oauth/signup/:name", async ({ actor, request, params, body, server }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const form = formOf(body);
        const ticket = cookieOf(request, EMAIL_STEP_COOKIE);
        const { fullName } = await deps.services.oidc.checkEmailStep(params.name, ticket);
        const email = form.get("email") ?? "";
        const again = (errors: FieldError[], status: number) =>
          withGuestForm(deps, (csrf) => <EmailStepPage ctx={ctx} csrf={csrf} name={params.name} fullName={fullName} email={email} errors={errors} />, status);
        if (!guestCsrfOk(request, form)) return again(EXPIRED_FORM, 403);
        try {
          const sent = await deps.services.oidc.sendEmailStepLink(params.name, ticket, email, deps.services.sessions.throttleAddressOf(request, server));
          const res = mailedSignInStep(deps, ctx, sent.email, ticket ?? "", "To finish signing in, open the link we sent to");
          res.headers.append("Set-Cookie", endGuestCsrf(deps.https));
          return res;
        } catch (error) {
          const refusal = formRefusal(error);
          if (refusal) return again(refusal.errors, refusal.status);
          throw error;
        }
      });
    })
    .get("/oauth/confirm", async ({ actor, request, query }) => {
      // The page never echoes the token in its links (the layout's sign-in link names the current address).
      const ctx = await pageContextOf(deps, actor, new Request(new URL("/oauth/confirm", request.url).href));
      const token = typeof query.token === "string" ? query.token : "";
      return renderOrError(ctx, async () => {
        const { email } = await deps.services.oidc.checkEmailStepLink(token);
        return withGuestForm(deps, (csrf) => (
          <LinkButtonPage
            ctx={ctx}
            title="Finish signing in"
            text={`Confirm ${email} as your e-mail address and sign in.`}
            action="/oauth/confirm"
            token={token}
            csrf={csrf}
            button="Confirm and sign in"
          />
        ));
      });
    })
    .post("/oauth/confirm", async ({ actor, request, body, server }) => {
      const ctx = await pageContextOf(deps, actor, new Request(new URL("/oauth/confirm", request.url).href));
      return renderOrError(ctx, async () => {
        const form = formOf(body);
        const token = form.get("token") ?? "";
        if (!guestCsrfOk(request, form)) {
          return withGuestForm(
            deps,
            (csrf) => (
              <LinkButtonPage
                ctx={ctx}
                title="Finish signing in"
                text="The form has expired: press the button again."
                action="/oauth/confirm"
                token={token}
                csrf={csrf}
                button="Confirm and sign in"
              />
            ),
            403,
          );
        }
        const done = await deps.services.oidc.confirmEmailStep(token, cookieOf(request, EMAIL_STEP_COOKIE), deps.services.sessions.clientOf(request, server));
        const res = await signedIn(deps, request, done.secret, done.next, endGuestCsrf(deps.https));
        res.headers.append("Set-Cookie", cookie(deps.https, EMAIL_STEP_COOKIE, "", 0));
        return res;
      });
    });

/** The routes of this file that take forms (the hooks parse their bodies). */
export const OAUTH_FORM_ROUTES = ["POST /oauth/signup/:name", "POST /oauth/confirm"];
