// Account settings → linked accounts: the external identities that sign the account in (listed,
// unlinked, one more linked through its OIDC provider's or SAML IdP's sign-in, started by a link
// carrying the session's CSRF token); and the page that asks for an existing account's password to link a provider
// identity whose address is that account's (the link is completed by POST /login, pendingLinkAfterSignIn).
import { Elysia } from "elysia";
import { LINKED_ACCOUNTS_PATH as PATH, type LinkableSource, type LinkedIdentity } from "../accounts/links";
import { PENDING_SIGN_IN_MS } from "../accounts/oidc";
import { SAML_REQUEST_MS } from "../accounts/saml";
import type { Actor } from "../core/actor";
import { HttpError } from "../core/errors";
import { cookieOf, type ActorContext } from "../core/http";
import { pageContextOf, renderOrError, type PagesDeps } from "./context";
import { checkCsrf, cookie, formOf, guestCsrf, htmlResponse, seeOther } from "./http";
import { Layout, type PageContext } from "./layout";
import { SettingsNav } from "./settings";
import { DataTable } from "./table";

/** Binds a sign-in under way to the browser that started it (the same cookie as /oauth/login's). */
export const SIGN_IN_BROWSER_COOKIE = "cairn_oauth";
/** Binds a SAML sign-in under way to the browser that started it (the same cookie as /saml/login's; accounts/saml.ts keeps its hash). */
export const SAML_BROWSER_COOKIE = "cairn_saml";
/** Carries a provider identity waiting to be linked by a password sign-in in this browser (accounts/links.ts). */
export const PENDING_LINK_COOKIE = "cairn_oauth_link";
export const PENDING_LINK_PATH = "/oauth/link";

/** Where a link of any source started from the settings ends: the page, saying it is linked (no session is made or changed). */
export const linkedLocation = (provider: string) => `${PATH}?linked=${encodeURIComponent(provider)}`;

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC";

interface Notice {
  text: string;
  ok: boolean;
}

/** The notice a redirect names (`?linked=`, `?unlinked=`, `?not-linked=`): only for a source the configuration knows, never text from the URL. */
function noticeOf(deps: PagesDeps, query: Record<string, unknown>): Notice | undefined {
  const title = (key: unknown) => (typeof key === "string" ? deps.services.linkedAccounts.knownTitle(key) : null);
  const linked = title(query.linked);
  if (linked) return { text: `Your ${linked} is now linked: you can sign in with it.`, ok: true };
  const unlinked = title(query.unlinked);
  if (unlinked) return { text: `${unlinked} is unlinked: it no longer signs you in.`, ok: true };
  const dropped = title(query["not-linked"]);
  if (!dropped) return undefined;
  const why = query.why === "linked-elsewhere" ? "it is linked to another account already" : "you signed in to an account with another e-mail address than the one it gave";
  return { text: `Your ${dropped} was not linked: ${why}.`, ok: false };
}

interface PageProps {
  ctx: PageContext;
  identities: LinkedIdentity[];
  linkable: LinkableSource[];
  hasPassword: boolean;
  notice?: Notice;
}

function IdentitiesTable({ identities, csrf }: { identities: LinkedIdentity[]; csrf: string }) {
  if (identities.length === 0) return <p class="muted">No other account is linked to yours: you sign in with your password.</p>;
  return (
    <DataTable class="linked" caption="Accounts linked to yours" columns={["Account", "Address it gave", "Linked on", "Last sign-in", "Action"]}>
      {identities.map((identity) => (
        <tr>
          <th scope="row">{identity.title}</th>
          <td>{identity.email ?? "—"}</td>
          <td>{when(identity.created)}</td>
          <td>{when(identity.lastSignIn)}</td>
          <td>
            <form class="inline" method="post" action={`${PATH}/unlink`}>
              <input type="hidden" name="csrf" value={csrf} />
              <input type="hidden" name="provider" value={identity.provider} />
              <input type="hidden" name="subject" value={identity.subject} />
              <button type="submit" class="danger" aria-label={`Unlink ${identity.title}`}>
                Unlink
              </button>
            </form>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function LinkedAccountsPage({ ctx, identities, linkable, hasPassword, notice }: PageProps) {
  const csrf = ctx.actor.csrf ?? "";
  return (
    <Layout ctx={ctx} title="Linked accounts">
      <h1>Linked accounts</h1>
      <SettingsNav here={PATH} />
      <p>Accounts elsewhere that sign you in here. {hasPassword ? "Your password signs you in too." : "Your account has no password: keep at least one linked."}</p>
      {notice ? (
        <p class={notice.ok ? "notice ok" : "notice error"} role={notice.ok ? "status" : "alert"}>
          {notice.text}
        </p>
      ) : null}
      <IdentitiesTable identities={identities} csrf={csrf} />
      {linkable.length ? (
        <section aria-labelledby="link-another">
          <h2 id="link-another">Link another account</h2>
          <p>You sign in with it once at its provider; it is then linked to this account.</p>
          <div class="actions">
            {linkable.map((p) => (
              <a class="button secondary" href={`${PATH}/link/${encodeURIComponent(p.key)}?csrf=${encodeURIComponent(csrf)}`}>
                Link {p.title}
              </a>
            ))}
          </div>
        </section>
      ) : null}
    </Layout>
  );
}

function PendingLinkPage({ ctx, csrf, email, title }: { ctx: PageContext; csrf: string; email: string; title: string }) {
  return (
    <Layout ctx={ctx} title={`Link your ${title}`}>
      <h1>An account with this address exists</h1>
      <p>
        An account with the address <strong>{email}</strong> exists already: sign in to it with its password to link your {title}. From then on either way signs you in.
      </p>
      <form class="card" method="post" action="/login">
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="next" value={PATH} />
        <label for="login">E-mail address or username</label>
        <input id="login" name="login" type="text" autocomplete="username" required value={email} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <div class="actions">
          <button type="submit">Sign in and link</button>
        </div>
      </form>
      <p class="muted">
        Nothing is linked unless you sign in to this account here within half an hour. No password? <a href="/lost-password">Set one</a>, or sign in the way you usually do and link{" "}
        {title} from your account settings.
      </p>
    </Layout>
  );
}

/** The page's data for the signed-in person. */
async function pageOf(deps: PagesDeps, ctx: PageContext, actor: Actor & { kind: "user" }, notice?: Notice) {
  const listed = await deps.services.linkedAccounts.listLinkedAccounts(actor, actor.userId);
  return <LinkedAccountsPage ctx={ctx} {...listed} notice={notice} />;
}

/**
 * After a password sign-in (POST /login) in a browser holding a pending link: the link completed
 * for the account signed in to (or dropped), the cookie ended, and where to go to read what happened;
 * null when there was no pending link.
 */
export async function pendingLinkAfterSignIn(deps: PagesDeps, request: Request, userId: number): Promise<{ location: string | null; clear: string } | null> {
  const ticket = cookieOf(request, PENDING_LINK_COOKIE);
  if (!ticket) return null;
  const clear = cookie(deps.https, PENDING_LINK_COOKIE, "", 0);
  const done = await deps.services.linkedAccounts.completePendingLink(ticket, userId);
  if (done.kind === "linked") return { location: linkedLocation(done.provider), clear };
  if (done.kind === "dropped") return { location: `${PATH}?not-linked=${encodeURIComponent(done.provider)}&why=${done.why}`, clear };
  return { location: null, clear };
}

export const linkedAccountsPages = (http: ActorContext, deps: PagesDeps) =>
  new Elysia()
    .use(http)
    .get(PATH, async ({ actor, request, query }) => {
      if (actor.kind !== "user") return seeOther(`/login?next=${encodeURIComponent(PATH)}`);
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, () => pageOf(deps, ctx, actor, noticeOf(deps, query)));
    })
    .post(`${PATH}/unlink`, async ({ actor, request, body }) => {
      if (actor.kind !== "user") return seeOther(`/login?next=${encodeURIComponent(PATH)}`);
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const form = formOf(body);
        checkCsrf(actor, form);
        const provider = form.get("provider") ?? "";
        try {
          await deps.services.linkedAccounts.unlinkIdentity(actor, actor.userId, provider, form.get("subject") ?? "");
        } catch (error) {
          // The last way in: the page again, saying why.
          if (error instanceof HttpError && error.status === 409) return htmlResponse(await pageOf(deps, ctx, actor, { text: error.message, ok: false }), 409);
          throw error;
        }
        return seeOther(`${PATH}?unlinked=${encodeURIComponent(provider)}`);
      });
    })
    // A link, not a form: the page's CSP (form-action 'self') stops a form's answer from
    // redirecting to the provider. It carries the session's CSRF token all the same, so another
    // site cannot start linking to the person signed in here (with, say, its own identity signed
    // in at the provider in this browser). `:source` is the identities' key: an OIDC provider's
    // name, or `saml:{name}` for a SAML IdP (bound to the browser by /saml/login's cookie).
    .get(`${PATH}/link/:source`, async ({ actor, request, params, query }) => {
      if (actor.kind !== "user") return seeOther(`/login?next=${encodeURIComponent(PATH)}`);
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        checkCsrf(actor, new URLSearchParams({ csrf: typeof query.csrf === "string" ? query.csrf : "" }));
        const saml = params.source.startsWith("saml:");
        const { url, browserSecret } = saml ? await deps.services.saml.beginLink(actor, params.source.slice(5)) : await deps.services.oidc.beginLink(actor, params.source);
        const bind = saml
          ? cookie(deps.https, SAML_BROWSER_COOKIE, browserSecret, SAML_REQUEST_MS / 1000)
          : cookie(deps.https, SIGN_IN_BROWSER_COOKIE, browserSecret, PENDING_SIGN_IN_MS / 1000);
        const headers = { Location: url, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "Set-Cookie": bind };
        return new Response(null, { status: 302, headers });
      });
    })
    .get(PENDING_LINK_PATH, async ({ actor, request }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const { email, title } = await deps.services.linkedAccounts.checkPendingLink(cookieOf(request, PENDING_LINK_COOKIE) ?? null);
        const { csrf, setCookie } = guestCsrf(deps.https);
        return htmlResponse(<PendingLinkPage ctx={ctx} csrf={csrf} email={email} title={title} />, 200, { "Set-Cookie": setCookie });
      });
    });

/** The routes of this file that take forms (the hooks parse their bodies). */
export const LINKED_ACCOUNTS_FORM_ROUTES = [`POST ${PATH}/unlink`];
