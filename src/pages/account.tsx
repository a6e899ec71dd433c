// Signing in and out: the login form (with a CSRF cookie of its own, as there is no session yet)
// and the session cookie, HttpOnly, SameSite=Lax, Secure on HTTPS.
import { Elysia } from "elysia";
import { SESSION_COOKIE, cookieOf, type ActorContext } from "../core/http";
import { HttpError } from "../core/errors";
import { pageContextOf, renderOrError, type PagesDeps } from "./context";
import { checkCsrf, cookie, endGuestCsrf, formOf, guestCsrf, guestCsrfOk, htmlResponse, localPath, seeOther } from "./http";
import { Layout, type PageContext } from "./layout";
import { pendingLinkAfterSignIn } from "./linked-accounts";

/** As long as a session lives at most (its own idle expiry ends it sooner when unused). */
const SESSION_COOKIE_MAX_AGE_S = 30 * 86_400;

/** A sign-in source's button on /login: where its sign-in starts, and its name for people. */
export interface SignInButton {
  href: string;
  title: string;
}

/**
 * Every sign-in source's button, with `next` carried: the one place a source with `providers()`
 * adds its buttons (each starts at its own path and brings the browser back to `next`).
 */
function signInButtons(deps: PagesDeps, next: string): SignInButton[] {
  const query = next === "/" ? "" : `?next=${encodeURIComponent(next)}`;
  return [
    ...deps.services.oidc.providers().map((p) => ({ href: `/oauth/login/${p.name}${query}`, title: p.title })),
    ...deps.services.saml.providers().map((p) => ({ href: `/saml/login/${p.name}${query}`, title: p.title })),
  ];
}

/**
 * How /login offers passwords: "open" (ACCOUNTS_LOCAL_LOGIN_ENABLED), "directory" (local passwords
 * off, the LDAP directory's on: the form is the directory's), "admins" (both off, but asked for
 * with ?local=1, or a form just sent: the sessions service lets only administrators in), "none".
 */
type PasswordLogin = "open" | "directory" | "admins" | "none";

/** The password form's state; `asked`: ?local=1, or a form just sent. */
function passwordLoginOf(deps: PagesDeps, asked: boolean): PasswordLogin {
  const { config } = deps.services.deps;
  if (config.ACCOUNTS_LOCAL_LOGIN_ENABLED) return "open";
  if (config.LDAP_URL) return "directory";
  return asked ? "admins" : "none";
}

interface LoginProps {
  ctx: PageContext;
  csrf: string;
  next: string;
  registerable: boolean;
  buttons: SignInButton[];
  password: PasswordLogin;
  /** LDAP_TITLE, lower-cased for the sentence that introduces the directory's form. */
  directoryTitle: string;
  error?: string;
  /** The account's address is not confirmed yet: offer a new link. */
  unconfirmed?: boolean;
  notice?: string;
  login?: string;
}

function PasswordForm({ csrf, next, login }: { csrf: string; next: string; login?: string }) {
  return (
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
  );
}

function LoginPage({ ctx, csrf, next, registerable, buttons, password, directoryTitle, error, unconfirmed, notice, login }: LoginProps) {
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
      {buttons.length ? (
        <div class="actions">
          {buttons.map((b) => (
            <a class="button" href={b.href}>
              Sign in with {b.title}
            </a>
          ))}
        </div>
      ) : password === "none" ? (
        <p class="muted">No sign-in provider is configured: ask the repository's administrators.</p>
      ) : null}
      {password === "admins" ? <p class="muted">Password sign-in is for the repository's administrators only.</p> : null}
      {password === "directory" ? (
        <p class="muted">
          {buttons.length ? "Or sign in" : "Sign in"} with the username and password of your {directoryTitle}.
        </p>
      ) : null}
      {password !== "none" ? <PasswordForm csrf={csrf} next={next} login={login} /> : null}
      {/* Without local sign-in a password (reset or new) opens nothing but an administrator's
          session: the links would lead people to accounts they cannot use. */}
      {password === "open" ? (
        <>
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
        </>
      ) : null}
    </Layout>
  );
}

/** The login page with a new guest CSRF pair (its cookie set): what differs between showing it and showing it again. */
function loginResponse(
  deps: PagesDeps,
  ctx: PageContext,
  status: number,
  props: Pick<LoginProps, "next" | "password" | "notice" | "error" | "unconfirmed" | "login">,
  headers: Record<string, string> = {},
): Response {
  const { csrf, setCookie } = guestCsrf(deps.https);
  const { config } = deps.services.deps;
  const page = (
    <LoginPage
      ctx={ctx}
      csrf={csrf}
      registerable={deps.services.accounts.registerable()}
      buttons={signInButtons(deps, props.next)}
      directoryTitle={config.LDAP_TITLE.toLowerCase()}
      {...props}
    />
  );
  return htmlResponse(page, status, { ...headers, "Set-Cookie": setCookie });
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
      const { config } = deps.services.deps;
      const buttons = signInButtons(deps, next);
      const password = passwordLoginOf(deps, query.local === "1");
      // One way to sign in, and it is not a password: straight to it.
      if (password === "none" && buttons.length === 1 && config.OAUTHCLIENT_AUTO_REDIRECT_TO_EXTERNAL_LOGIN) return seeOther(buttons[0]!.href, { "Cache-Control": "no-store" });
      const notice = typeof query.done === "string" ? NOTICES[query.done] : undefined;
      return loginResponse(deps, ctx, 200, { next, password, notice });
    })
    .post("/login", async ({ actor, request, body, server }) => {
      const ctx = await pageContextOf(deps, actor, request);
      const form = formOf(body);
      const next = localPath(form.get("next"));
      const login = form.get("login") ?? "";
      const again = (status: number, error: string, headers: Record<string, string> = {}, unconfirmed = false) =>
        loginResponse(deps, ctx, status, { next, password: passwordLoginOf(deps, true), error, unconfirmed, login }, headers);
      if (!guestCsrfOk(request, form)) return again(403, "The form has expired: please sign in again.");
      try {
        const { sessions } = deps.services;
        const session = await sessions.signIn(login, form.get("password") ?? "", sessions.throttleAddressOf(request, server), sessions.clientOf(request, server));
        // A provider identity waiting in this browser for this account's password: linked now (or dropped).
        const link = await pendingLinkAfterSignIn(deps, request, session.userId);
        const headers = new Headers({ Location: link?.location ?? next });
        headers.append("Set-Cookie", cookie(deps.https, SESSION_COOKIE, session.secret, SESSION_COOKIE_MAX_AGE_S));
        headers.append("Set-Cookie", endGuestCsrf(deps.https));
        if (link) headers.append("Set-Cookie", link.clear);
        return new Response(null, { status: 303, headers });
      } catch (error) {
        // Guessing slowed: 429 with the service's Retry-After; the directory (LDAP) unreachable: 502;
        // its entry's address already a local account's that may not be linked: 409.
        if (error instanceof HttpError)
          return again([403, 409, 429, 502].includes(error.status) ? error.status : 400, error.message, error.headers, error.extra.code === "unconfirmed");
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
