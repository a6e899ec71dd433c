// Making an account (/signup, when the repository opens sign-up) and confirming its e-mail address
// through the mailed link (/account/confirm), or asking for a new link. A mailed link opens a page
// with a button: mail scanners that fetch links do not use it up.
import { Elysia } from "elysia";
import type { Actor } from "../core/actor";
import { HttpError, type FieldError } from "../core/errors";
import type { ActorContext } from "../core/http";
import { pageContextOf, renderOrError, type PagesDeps } from "./context";
import { TextField } from "./forms";
import { endGuestCsrf, formOf, formRefusal, guestCsrfOk, htmlResponse, seeOther } from "./http";
import { CheckYourMail, EXPIRED_FORM, FormAlert, mailedLinkPage, withGuestForm, EmailForm } from "./guest-forms";
import { Layout, type PageContext } from "./layout";

interface SignUpState {
  email?: string;
  fullName?: string;
  errors?: FieldError[];
}

function SignUpPage({ ctx, csrf, state, allowedDomains }: { ctx: PageContext; csrf: string; state: SignUpState; allowedDomains: string[] }) {
  return (
    <Layout ctx={ctx} title="Sign up">
      <h1>Sign up</h1>
      <FormAlert errors={state.errors} />
      <form class="card" method="post" action="/signup">
        <input type="hidden" name="csrf" value={csrf} />
        <TextField
          field="email"
          label="E-mail address"
          type="email"
          autocomplete="email"
          required
          value={state.email}
          errors={state.errors}
          hint={allowedDomains.length ? `Addresses at ${allowedDomains.join(", ")}.` : undefined}
        />
        <TextField field="full_name" label="Full name" autocomplete="name" maxlength={255} value={state.fullName} errors={state.errors} />
        <TextField field="password" label="Password" type="password" autocomplete="new-password" required errors={state.errors} hint="At least 8 characters." />
        <div class="actions">
          <button type="submit">Sign up</button>
        </div>
      </form>
      <p>
        Have an account already? <a href="/login">Sign in</a>
      </p>
    </Layout>
  );
}

function ResendPage({ ctx, csrf, email, errors }: { ctx: PageContext; csrf: string; email?: string; errors?: FieldError[] }) {
  return (
    <Layout ctx={ctx} title="A new confirmation link">
      <h1>A new confirmation link</h1>
      <FormAlert errors={errors} />
      <EmailForm csrf={csrf} action="/account/confirm/resend" label="E-mail address of your account" button="Send the link" email={email} errors={errors} />
    </Layout>
  );
}

/** Signed-in people have an account already: sign-up and its links send them home. */
const signedIn = (actor: Actor) => actor.kind === "user";

export const signUpPages = (http: ActorContext, deps: PagesDeps) => {
  const { accounts, sessions } = deps.services;
  const domains = deps.services.deps.config.ACCOUNTS_REGISTER_ALLOWED_DOMAINS;
  const closed = () => new HttpError(404, "Sign-up is closed: accounts are made by the repository's administrators.");
  return new Elysia()
    .use(http)
    .get("/signup", async ({ actor, request }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, () => {
        if (!accounts.registerable()) throw closed();
        if (signedIn(actor)) return seeOther("/");
        return withGuestForm(deps, (csrf) => <SignUpPage ctx={ctx} csrf={csrf} state={{}} allowedDomains={domains} />);
      });
    })
    .post("/signup", async ({ actor, request, body, server }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        if (!accounts.registerable()) throw closed();
        const form = formOf(body);
        const state: SignUpState = { email: form.get("email") ?? "", fullName: form.get("full_name") ?? "" };
        const again = (errors: FieldError[], status: number, headers: Record<string, string> = {}) =>
          withGuestForm(deps, (csrf) => <SignUpPage ctx={ctx} csrf={csrf} state={{ ...state, errors }} allowedDomains={domains} />, status, headers);
        if (!guestCsrfOk(request, form)) return again(EXPIRED_FORM, 403);
        try {
          const done = await accounts.signUp({ email: state.email!, password: form.get("password") ?? "", fullName: state.fullName }, sessions.throttleAddressOf(request, server));
          if (done.confirmed) return seeOther("/login?done=signed-up", { "Set-Cookie": endGuestCsrf(deps.https) });
          return htmlResponse(
            <CheckYourMail
              ctx={ctx}
              deps={deps}
              email={done.email}
              what="To finish signing up, open the link we sent to"
              instead="Your account is made but not confirmed: ask the repository's administrators to confirm it, then sign in."
            />,
            200,
            {
              "Set-Cookie": endGuestCsrf(deps.https),
            },
          );
        } catch (error) {
          const refusal = formRefusal(error);
          if (refusal) return again(refusal.errors, refusal.status, refusal.headers);
          throw error;
        }
      });
    })
    .get("/account/confirm", ({ actor, request, query }) =>
      mailedLinkPage(deps, actor, request, query.token, {
        path: "/account/confirm",
        title: "Confirm your e-mail address",
        text: "Confirm that this e-mail address is yours; your account can then sign in.",
        button: "Confirm my e-mail address",
      }),
    )
    .post("/account/confirm", async ({ actor, request, body }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const form = formOf(body);
        if (!guestCsrfOk(request, form)) throw new HttpError(403, "The form has expired: open the link from the mail again.");
        await accounts.confirmEmail(form.get("token") ?? "");
        return seeOther(signedIn(actor) ? "/" : "/login?done=confirmed", { "Set-Cookie": endGuestCsrf(deps.https) });
      });
    })
    .get("/account/confirm/resend", async ({ actor, request }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return withGuestForm(deps, (csrf) => <ResendPage ctx={ctx} csrf={csrf} />);
    })
    .post("/account/confirm/resend", async ({ actor, request, body, server }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const form = formOf(body);
        const email = form.get("email") ?? "";
        const again = (errors: FieldError[], status: number, headers: Record<string, string> = {}) =>
          withGuestForm(deps, (csrf) => <ResendPage ctx={ctx} csrf={csrf} email={email} errors={errors} />, status, headers);
        if (!guestCsrfOk(request, form)) return again(EXPIRED_FORM, 403);
        try {
          const done = await accounts.resendConfirmation(email, sessions.throttleAddressOf(request, server));
          return (
            <CheckYourMail
              ctx={ctx}
              deps={deps}
              email={done.email}
              what="If an account waits for confirmation at this address, a new link is on its way to"
              instead="Ask the repository's administrators to confirm your account."
            />
          );
        } catch (error) {
          const refusal = formRefusal(error);
          if (refusal) return again(refusal.errors, refusal.status, refusal.headers);
          throw error;
        }
      });
    });
};

/** The routes of this file that take forms (the hooks parse their bodies). */
export const SIGN_UP_FORM_ROUTES = ["POST /signup", "POST /account/confirm", "POST /account/confirm/resend"];
