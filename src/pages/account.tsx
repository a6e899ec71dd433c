// Signing in and out: the login form (with a CSRF cookie of its own, as there is no session yet)
// and the session cookie, HttpOnly, SameSite=Lax, Secure on HTTPS.
import { Elysia } from "elysia";
import { SESSION_COOKIE, cookieOf, type ActorContext } from "../core/http";
import { HttpError } from "../core/errors";
import { pageContextOf, renderOrError, type PagesDeps } from "./context";
import { checkCsrf, cookie, endGuestCsrf, formOf, guestCsrf, guestCsrfOk, htmlResponse, localPath, seeOther } from "./http";
import { Layout, type PageContext } from "./layout";

/** As long as a session lives at most (its own idle expiry ends it sooner when unused). */
const SESSION_COOKIE_MAX_AGE_S = 30 * 86_400;

interface LoginProps {
  ctx: PageContext;
  csrf: string;
  next: string;
  registerable: boolean;
  /** The OIDC_PROVIDERS' buttons. */
  providers: { name: string; title: string }[];
  error?: string;
  /** The account's address is not confirmed yet: offer a new link. */
  unconfirmed?: boolean;
  notice?: string;
  login?: string;
}

function LoginPage({ ctx, csrf, next, registerable, providers, error, unconfirmed, notice, login }: LoginProps) {
  return (
    <Layout ctx={ctx} title="Sign in">
      <h1>Sign in</h1>
      {notice ? (
        <p class="notice ok" role="status">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p class="notice error" role="alert">
          {error}
          {unconfirmed ? (
            <>
              {" "}
              <a href="/account/confirm/resend">Send me a new confirmation link</a>
            </>
          ) : null}
        </p>
      ) : null}
      {providers.length ? (
        <div class="actions">
          {providers.map((p) => (
            <a class="button" href={`/oauth/login/${p.name}${next === "/" ? "" : `?next=${encodeURIComponent(next)}`}`}>
              Sign in with {p.title}
            </a>
          ))}
        </div>
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
      <p>
        <a href="/lost-password">Forgot your password?</a>
      </p>
      {registerable ? (
        <p>
          No account yet? <a href="/signup">Sign up</a>
        </p>
      ) : (
        <p class="muted">Accounts are made by the repository's administrators.</p>
      )}
    </Layout>
  );
}

/** What the login page says after a flow that ends there (`?done=`): its known notices only, never text from the URL. */
const NOTICES: Record<string, string> = {
  confirmed: "Your e-mail address is confirmed: you can sign in now.",
  "password-set": "Your new password is set, and every other session of your account has ended: sign in with it.",
  "signed-up": "Your account is ready: sign in.",
};

export const accountPages = (http: ActorContext, deps: PagesDeps) =>
  new Elysia()
    .use(http)
    .get("/login", async ({ actor, request, query }) => {
      const ctx = await pageContextOf(deps, actor, request);
      const next = localPath(typeof query.next === "string" ? query.next : null);
      if (actor.kind === "user") return seeOther(next);
      const { csrf, setCookie } = guestCsrf(deps.https);
      const notice = typeof query.done === "string" ? NOTICES[query.done] : undefined;
      const page = <LoginPage ctx={ctx} csrf={csrf} next={next} registerable={deps.services.accounts.registerable()} providers={deps.services.oidc.providers()} notice={notice} />;
      return htmlResponse(page, 200, { "Set-Cookie": setCookie });
    })
    .post("/login", async ({ actor, request, body, server }) => {
      const ctx = await pageContextOf(deps, actor, request);
      const form = formOf(body);
      const next = localPath(form.get("next"));
      const login = form.get("login") ?? "";
      const again = (status: number, error: string, headers: Record<string, string> = {}, unconfirmed = false) => {
        const { csrf, setCookie } = guestCsrf(deps.https);
        const page = (
          <LoginPage
            ctx={ctx}
            csrf={csrf}
            next={next}
            registerable={deps.services.accounts.registerable()}
            providers={deps.services.oidc.providers()}
            error={error}
            unconfirmed={unconfirmed}
            login={login}
          />
        );
        return htmlResponse(page, status, { ...headers, "Set-Cookie": setCookie });
      };
      if (!guestCsrfOk(request, form)) return again(403, "The form has expired: please sign in again.");
      try {
        const { sessions } = deps.services;
        const session = await sessions.signIn(login, form.get("password") ?? "", sessions.throttleAddressOf(request, server));
        const headers = new Headers({ Location: next });
        headers.append("Set-Cookie", cookie(deps.https, SESSION_COOKIE, session.secret, SESSION_COOKIE_MAX_AGE_S));
        headers.append("Set-Cookie", endGuestCsrf(deps.https));
        return new Response(null, { status: 303, headers });
      } catch (error) {
        // Guessing slowed: 429 with the service's Retry-After.
        if (error instanceof HttpError)
          return again(error.status === 429 || error.status === 403 ? error.status : 400, error.message, error.headers, error.extra.code === "unconfirmed");
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
        return seeOther("/", { "Set-Cookie": cookie(deps.https, SESSION_COOKIE, "", 0) });
      });
    });

/** The routes of this file that take forms (the hooks parse their bodies). */
export const ACCOUNT_FORM_ROUTES = ["POST /login", "POST /logout"];
