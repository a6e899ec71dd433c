// What the forms sent before signing in share (sign-up, the mailed links, a forgotten password):
// a fresh guest form token with each page, the form's general alert, and the pages a mailed link
// leads to.
import type { FieldError } from "../core/errors";
import { TextField } from "./forms";
import { guestCsrf, htmlResponse } from "./http";
import type { Node } from "./jsx-runtime";
import { Layout, type PageContext } from "./layout";
import type { Actor } from "../core/actor";
import { pageContextOf, type PagesDeps } from "./context";

export const EXPIRED_FORM: FieldError[] = [{ field: "form", messages: ["The form has expired: please send it again."] }];

/** The form's general message: a refusal of the whole form, or a pointer to the fields' messages. */
export function FormAlert({ errors }: { errors?: FieldError[] }) {
  if (!errors?.length) return null;
  const general = errors.filter((e) => e.field === "form").flatMap((e) => e.messages);
  return (
    <p class="notice error" role="alert">
      {general.length ? general.join(" ") : "Nothing was sent: see the messages below."}
    </p>
  );
}

/** Mail is off (MAIL_SERVER empty): mail waits in the outbox and nobody receives it. The administration's banner asks the same. */
export const mailIsOff = (deps: PagesDeps) => !deps.services.deps.config.MAIL_SERVER;

/** What a page says instead of promising a mail when mail is off: nothing will arrive, and what to do. */
export function MailOffNotice({ instead }: { instead: string }) {
  return (
    <p class="notice warn" role="status">
      This site sends no e-mail at the moment (mail is off), so no link or message will arrive. {instead}
    </p>
  );
}

/**
 * What a form that mailed a link answers (the same whether or not the address has an account);
 * with mail off, that nothing will arrive and what to do `instead`.
 */
export function CheckYourMail(props: { ctx: PageContext; deps: PagesDeps; email: string; what: string; instead?: string }) {
  const { ctx, email, what } = props;
  const title = "Check your mail";
  if (mailIsOff(props.deps)) {
    return (
      <Layout ctx={ctx} title="No mail can be sent">
        <h1>No mail can be sent</h1>
        <MailOffNotice instead={props.instead ?? "Ask the repository's administrators for help."} />
      </Layout>
    );
  }
  return (
    <Layout ctx={ctx} title={title}>
      <h1>{title}</h1>
      <p class="notice ok" role="status">
        {what} <strong>{email}</strong>.
      </p>
      <p>It may take a few minutes to arrive; look in your spam folder too. The link works once.</p>
    </Layout>
  );
}

/** A mailed link's page: what opening it will do, and the button that does it. */
export function LinkButtonPage(props: { ctx: PageContext; title: string; text: string; action: string; token: string; csrf: string; button: string }) {
  return (
    <Layout ctx={props.ctx} title={props.title}>
      <h1>{props.title}</h1>
      <p>{props.text}</p>
      <form class="card" method="post" action={props.action}>
        <input type="hidden" name="csrf" value={props.csrf} />
        <input type="hidden" name="token" value={props.token} />
        <div class="actions">
          <button type="submit">{props.button}</button>
        </div>
      </form>
    </Layout>
  );
}

export /** A page's HTML with a fresh guest form token set in its cookie. */
function withGuestForm(deps: PagesDeps, render: (csrf: string) => Node, status = 200, headers: Record<string, string> = {}): Response {
  const { csrf, setCookie } = guestCsrf(deps.https);
  return htmlResponse(render(csrf), status, { ...headers, "Set-Cookie": setCookie });
}

/** What a mailed link's page says and does. */
export interface MailedLink {
  /** The link's path (the page's context leaves out its token: the layout's sign-in link names the current address). */
  path: string;
  title: string;
  text: string;
  button: string;
}

/** GET of a mailed link: its page with the button that posts the token back to `link.path`. */
export async function mailedLinkPage(deps: PagesDeps, actor: Actor, request: Request, token: unknown, link: MailedLink): Promise<Response> {
  const ctx = await pageContextOf(deps, actor, new Request(new URL(link.path, request.url).href));
  const value = typeof token === "string" ? token : "";
  return withGuestForm(deps, (csrf) => <LinkButtonPage ctx={ctx} title={link.title} text={link.text} action={link.path} token={value} csrf={csrf} button={link.button} />);
}

/** A guest form asking for one e-mail address (a new confirmation link, a forgotten password, an address a provider did not give). */
export function EmailForm(props: { csrf: string; action: string; label: string; button: string; email?: string; errors?: FieldError[] }) {
  return (
    <form class="card" method="post" action={props.action}>
      <input type="hidden" name="csrf" value={props.csrf} />
      <TextField field="email" label={props.label} type="email" autocomplete="email" required value={props.email} errors={props.errors} />
      <div class="actions">
        <button type="submit">{props.button}</button>
      </div>
    </form>
  );
}
