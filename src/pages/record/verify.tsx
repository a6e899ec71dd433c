// The page of a guest's mailed verification link (`/access/requests/verify?token=`): a button that
// confirms the address (a mail scanner's GET spends nothing), then what happened and what comes next.
// The mail's API link (`/api/access/requests/verify`) sends browsers here; API clients keep its JSON.
import type { Actor } from "../../core/actor";
import { HttpError } from "../../core/errors";
import type { PagesDeps } from "../context";
import { pageContextOf, renderOrError } from "../context";
import { mailedLinkPage, mailIsOff } from "../guest-forms";
import { endGuestCsrf, formOf, guestCsrfOk, htmlResponse } from "../http";
import { Layout, type PageContext } from "../layout";

export const VERIFY_PATH = "/access/requests/verify";

/** GET: what confirming does, and the button. */
export const verifyLinkPage = (deps: PagesDeps, actor: Actor, request: Request, token: unknown) =>
  mailedLinkPage(deps, actor, request, token, {
    path: VERIFY_PATH,
    title: "Confirm your access request",
    text: "Confirm that this e-mail address is yours: your request for access then goes to the record's owner, who decides on it.",
    button: "Confirm and send my request",
  });

function VerifiedPage({ ctx, title, mailOff }: { ctx: PageContext; title: string; mailOff: boolean }) {
  return (
    <Layout ctx={ctx} title="Access request sent">
      <h1>Access request sent</h1>
      <p class="notice ok" role="status">
        Your e-mail address is confirmed. {title || "Your access request"} was sent to the record's owner.
      </p>
      <h2>What happens next</h2>
      <p>
        The owner sees your request on their dashboard and accepts or declines it.{" "}
        {mailOff
          ? "This site sends no e-mail at the moment (mail is off), so no answer will reach you by mail: ask the owner about it another way."
          : "You will hear of their answer by e-mail; if they accept, the mail brings a link that opens the files."}
      </p>
      <p>
        <a href="/">Go to the front page</a>
      </p>
    </Layout>
  );
}

/** A link that cannot be used (unknown, used, expired, or the record no longer takes requests): why, and what to do. */
function LinkProblemPage({ ctx, message }: { ctx: PageContext; message: string }) {
  return (
    <Layout ctx={ctx} title="The link cannot be used">
      <h1>The link cannot be used</h1>
      <p class="notice error" role="alert">
        {message}
      </p>
      <p>Open the record's page again to ask once more.</p>
    </Layout>
  );
}

/** POST: confirms through the access-requests service (the same as the API's link), then says what happened. */
export async function verifyLinkAnswer(deps: PagesDeps, actor: Actor, request: Request, body: unknown): Promise<Response> {
  const ctx = await pageContextOf(deps, actor, new Request(new URL(VERIFY_PATH, request.url).href));
  return renderOrError(ctx, async () => {
    const form = formOf(body);
    if (!guestCsrfOk(request, form)) throw new HttpError(403, "The form has expired: open the link from the mail again.");
    const done = { "Set-Cookie": endGuestCsrf(deps.https) };
    try {
      const result = (await deps.services.accessRequests.verifyGuest(form.get("token") ?? "")) as { request?: { title?: string } };
      return htmlResponse(<VerifiedPage ctx={ctx} title={String(result.request?.title ?? "")} mailOff={mailIsOff(deps)} />, 200, done);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status >= 500) throw error;
      return htmlResponse(<LinkProblemPage ctx={ctx} message={error.message} />, error.status, done);
    }
  });
}
