// A forgotten password: /lost-password mails a one-use link (an hour) to the account's address,
// answering the same whether or not there is one; /lost-password/reset?token= sets the new
// password, which ends every session of the account.
import { Elysia } from "elysia";
import type { FieldError } from "../core/errors";
import type { ActorContext } from "../core/http";
import { pageContextOf, renderOrError, type PagesDeps } from "./context";
import { TextField } from "./forms";
import { CheckYourMail, EXPIRED_FORM, FormAlert, MailOffNotice, mailIsOff, withGuestForm, EmailForm } from "./guest-forms";
import { endGuestCsrf, formOf, formRefusal, guestCsrfOk, seeOther } from "./http";
import { Layout, type PageContext } from "./layout";

function LostPasswordPage({ ctx, csrf, email, errors, mailOff }: { ctx: PageContext; csrf: string; email?: string; errors?: FieldError[]; mailOff: boolean }) {
  return (
    <Layout ctx={ctx} title="Forgot your password?">
      <h1>Forgot your password?</h1>
      {mailOff ? (
        <MailOffNotice instead="A link to set a new password cannot reach you: ask the repository's administrators to set one for you." />
      ) : (
        <p>Give the e-mail address of your account: we send it a link to set a new password.</p>
      )}
      <FormAlert errors={errors} />
      <EmailForm csrf={csrf} action="/lost-password" label="E-mail address" button="Send me a link" email={email} errors={errors} />
    </Layout>
  );
}

function NewPasswordPage({ ctx, csrf, token, errors }: { ctx: PageContext; csrf: string; token: string; errors?: FieldError[] }) {
  return (
    <Layout ctx={ctx} title="Set a new password">
      <h1>Set a new password</h1>
      <p>Signing in elsewhere with the old password stops working: every session of your account ends.</p>
      <FormAlert errors={errors} />
      <form class="card" method="post" action="/lost-password/reset">
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="token" value={token} />
        <TextField field="password" label="New password" type="password" autocomplete="new-password" required errors={errors} hint="At least 8 characters." />
        <div class="actions">
          <button type="submit">Set the password</button>
        </div>
      </form>
    </Layout>
  );
}

export const lostPasswordPages = (http: ActorContext, deps: PagesDeps) => {
  const { accounts, sessions } = deps.services;
  // The token stays out of the page context: the layout's sign-in link names the current address.
  const contextAt = (path: string, request: Request) => new Request(new URL(path, request.url).href);
  return new Elysia()
    .use(http)
    .get("/lost-password", async ({ actor, request }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return withGuestForm(deps, (csrf) => <LostPasswordPage ctx={ctx} csrf={csrf} mailOff={mailIsOff(deps)} />);
    })
    .post("/lost-password", async ({ actor, request, body, server }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const form = formOf(body);
        const email = form.get("email") ?? "";
        const again = (errors: FieldError[], status: number, headers: Record<string, string> = {}) =>
          withGuestForm(deps, (csrf) => <LostPasswordPage ctx={ctx} csrf={csrf} email={email} errors={errors} mailOff={mailIsOff(deps)} />, status, headers);
        if (!guestCsrfOk(request, form)) return again(EXPIRED_FORM, 403);
        try {
          const done = await accounts.requestPasswordReset(email, sessions.throttleAddressOf(request, server));
          return (
            <CheckYourMail
              ctx={ctx}
              deps={deps}
              email={done.email}
              what="If there is an account with this address, a link to set a new password is on its way to"
              instead="Ask the repository's administrators to set a new password for you."
            />
          );
        } catch (error) {
          const refusal = formRefusal(error);
          if (refusal) return again(refusal.errors, refusal.status, refusal.headers);
          throw error;
        }
      });
    })
    .get("/lost-password/reset", async ({ actor, request, query }) => {
      const ctx = await pageContextOf(deps, actor, contextAt("/lost-password/reset", request));
      const token = typeof query.token === "string" ? query.token : "";
      return renderOrError(ctx, async () => {
        await accounts.checkResetLink(token);
        return withGuestForm(deps, (csrf) => <NewPasswordPage ctx={ctx} csrf={csrf} token={token} />);
      });
    })
    .post("/lost-password/reset", async ({ actor, request, body }) => {
      const ctx = await pageContextOf(deps, actor, contextAt("/lost-password/reset", request));
      return renderOrError(ctx, async () => {
        const form = formOf(body);
        const token = form.get("token") ?? "";
        const again = (errors: FieldError[], status: number, headers: Record<string, string> = {}) =>
          withGuestForm(deps, (csrf) => <NewPasswordPage ctx={ctx} csrf={csrf} token={token} errors={errors} />, status, headers);
        if (!guestCsrfOk(request, form)) return again(EXPIRED_FORM, 403);
        try {
          await accounts.resetPassword(token, form.get("password") ?? "");
        } catch (error) {
          const refusal = formRefusal(error);
          if (refusal) return again(refusal.errors, refusal.status, refusal.headers);
          throw error;
        }
        // This browser's session (if any) ended with the others: it signs in anew.
        return seeOther("/login?done=password-set", { "Set-Cookie": endGuestCsrf(deps.https) });
      });
    });
};

/** The routes of this file that take forms (the hooks parse their bodies). */
export const LOST_PASSWORD_FORM_ROUTES = ["POST /lost-password", "POST /lost-password/reset"];
