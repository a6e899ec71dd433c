// Signing in and out: the login form (with a CSRF cookie of its own, as there is no session yet)
// and the session cookie, HttpOnly, SameSite=Lax, Secure on HTTPS.
import { Elysia } from "elysia";
import { SESSION_COOKIE, cookieOf, type ActorContext } from "../core/http";
import { newSecret } from "../core/ids";
import { HttpError } from "../core/errors";
import { pageContextOf, renderOrError, type PagesDeps } from "./context";
import { checkCsrf, formOf, htmlResponse, localPath, seeOther } from "./http";
import { Layout, type PageContext } from "./layout";

const LOGIN_CSRF_COOKIE = "cairn_login_csrf";

/** A cookie of the pages (pages/sign-in-link.tsx sets the session's too). */
export const cookie = (deps: PagesDeps, name: string, value: string, maxAgeSeconds: number) =>
  `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${deps.https ? "; Secure" : ""}`;

function LoginPage({ ctx, csrf, next, error, login }: { ctx: PageContext; csrf: string; next: string; error?: string; login?: string }) {
  return (
    <Layout ctx={ctx} title="Sign in">
      <h1>Sign in</h1>
      {error ? (
        <p class="notice error" role="alert">
          {error}
        </p>
      ) : null}
      <form class="card" method="post" action="/login">
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="next" value={next} />
        <label for="login">E-mail address or username</label>
        <input id="login" name="login" type="text" autocomplete="username" required value={login ?? ""} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <div class="actions">
          <button type="submit">Sign in</button>
        </div>
      </form>
      <p class="muted">Accounts are made by the repository's administrators (`cairn users create`).</p>
    </Layout>
  );
}

export const accountPages = (http: ActorContext, deps: PagesDeps) =>
  new Elysia()
    .use(http)
    .get("/login", async ({ actor, request, query }) => {
      const ctx = await pageContextOf(deps, actor, request);
      const next = localPath(typeof query.next === "string" ? query.next : null);
      if (actor.kind === "user") return seeOther(next);
      const csrf = newSecret();
      return htmlResponse(<LoginPage ctx={ctx} csrf={csrf} next={next} />, 200, { "Set-Cookie": cookie(deps, LOGIN_CSRF_COOKIE, csrf, 3600) });
    })
    .post("/login", async ({ actor, request, body, server }) => {
      const ctx = await pageContextOf(deps, actor, request);
      const form = formOf(body);
      const next = localPath(form.get("next"));
      const expected = cookieOf(request, LOGIN_CSRF_COOKIE);
      const login = form.get("login") ?? "";
      const again = (status: number, error: string, headers: Record<string, string> = {}) => {
        const csrf = newSecret();
        return htmlResponse(<LoginPage ctx={ctx} csrf={csrf} next={next} error={error} login={login} />, status, {
          ...headers,
          "Set-Cookie": cookie(deps, LOGIN_CSRF_COOKIE, csrf, 3600),
        });
      };
      if (!expected || form.get("csrf") !== expected) return again(403, "The form has expired: please sign in again.");
      try {
        const { sessions } = deps.services;
        const session = await sessions.signIn(login, form.get("password") ?? "", sessions.throttleAddressOf(request, server));
        const headers = new Headers({ Location: next });
        headers.append("Set-Cookie", cookie(deps, SESSION_COOKIE, session.secret, 30 * 86_400));
        headers.append("Set-Cookie", cookie(deps, LOGIN_CSRF_COOKIE, "", 0));
        return new Response(null, { status: 303, headers });
      } catch (error) {
        // Guessing slowed: 429 with the service's Retry-After.
        if (error instanceof HttpError) return again(error.status === 429 ? 429 : 400, error.message, error.headers);
        throw error;
      }
    })
    .post("/logout", async ({ actor, request, body }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const secret = cookieOf(request, SESSION_COOKIE);
        if (actor.kind !== "user" || !secret) return seeOther("/");
        // Signing out needs the session's token too: another site must not sign people out.
        checkCsrf(actor, formOf(body));
        await deps.services.sessions.signOut(secret);
        return seeOther("/", { "Set-Cookie": cookie(deps, SESSION_COOKIE, "", 0) });
      });
    });

/** The routes of this file that take forms (the hooks parse their bodies). */
export const ACCOUNT_FORM_ROUTES = ["POST /login", "POST /logout"];
