// Account settings → applications: the signed-in user's personal access tokens (create, shown
// once; list; revoke), through the tokens service as the REST API's own callers would.
import { DataTable } from "./table";
import { Elysia } from "elysia";
import type { Actor } from "../core/actor";
import { HttpError, unauthorized, type FieldError } from "../core/errors";
import type { ActorContext } from "../core/http";
import { KNOWN_SCOPES } from "../tokens/service";
import { registerAsset } from "./assets";
import { pageContextOf, renderOrError, type PagesDeps } from "./context";
import { checkCsrf, formOf, htmlResponse, seeOther } from "./http";
import { FieldErrors } from "./forms";
import { Layout, type PageContext } from "./layout";
import { SettingsNav } from "./settings";
import applicationsJs from "./static/applications.js" with { type: "text" };

registerAsset("applications.js", applicationsJs);

const PATH = "/account/settings/applications";
const DAY_MS = 86_400_000;

/** What each scope lets a token do, in words. */
const SCOPE_HELP: Record<string, string> = { "user:email": "Read the e-mail address of your account." };

/** Expiry choices of the form, in days ("" never expires). */
const EXPIRY_CHOICES: [string, string][] = [
  ["", "Never"],
  ["30", "In 30 days"],
  ["90", "In 90 days"],
  ["365", "In a year"],
];

interface TokenView {
  id: number;
  name: string;
  scopes: string[];
  created: number;
  lastUsed: number | null;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** What the form was sent with, and the service's field errors, to show it again. */
interface FormState {
  name?: string;
  scopes?: string[];
  expires?: string;
  errors?: FieldError[];
}

const when = (ms: number | null) => (ms === null ? "—" : new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC");

function statusOf(token: TokenView, now: number): string {
  if (token.revokedAt !== null) return `Revoked ${when(token.revokedAt)}`;
  if (token.expiresAt !== null && token.expiresAt <= now) return "Expired";
  return "Active";
}

function NewToken({ name, secret }: { name: string; secret: string }) {
  return (
    <section class="card notice ok" aria-labelledby="new-token">
      <h2 id="new-token">Token “{name}” created</h2>
      <p>Copy it now and keep it somewhere safe: it is shown only this once, and cannot be shown again.</p>
      <label for="new-token-value">Your new personal access token</label>
      <input id="new-token-value" class="mono" type="text" readonly value={secret} />
      <div class="actions">
        <button type="button" class="secondary" data-copy="new-token-value" hidden>
          Copy to clipboard
        </button>
        <span class="muted" role="status" data-copy-status="" />
      </div>
      <p class="muted">
        Send it as <code>Authorization: Bearer &lt;token&gt;</code> with each request to the REST API.
      </p>
    </section>
  );
}

function CreateForm({ csrf, state }: { csrf: string; state: FormState }) {
  const chosen = new Set(state.scopes ?? []);
  const nameError = state.errors?.some((e) => e.field === "name");
  return (
    <form class="card" method="post" action={`${PATH}/tokens`} aria-labelledby="create-token">
      <h2 id="create-token">New personal access token</h2>
      <input type="hidden" name="csrf" value={csrf} />
      <label for="token-name">Name</label>
      <input
        id="token-name"
        name="name"
        type="text"
        required
        maxlength={100}
        value={state.name ?? ""}
        aria-invalid={nameError ? "true" : undefined}
        aria-describedby={nameError ? "token-name-error" : undefined}
      />
      <FieldErrors errors={state.errors} field="name" id="token-name-error" />
      <fieldset>
        <legend>Scopes</legend>
        {KNOWN_SCOPES.map((scope) => (
          <label>
            <input type="checkbox" name="scopes" value={scope} checked={chosen.has(scope)} /> <code>{scope}</code> — {SCOPE_HELP[scope] ?? ""}
          </label>
        ))}
        <FieldErrors errors={state.errors} field="scopes" id="token-scopes-error" />
      </fieldset>
      <label for="token-expires">Expires</label>
      <select id="token-expires" name="expires">
        {EXPIRY_CHOICES.map(([value, label]) => (
          <option value={value} selected={(state.expires ?? "") === value}>
            {label}
          </option>
        ))}
      </select>
      <div class="actions">
        <button type="submit">Create token</button>
      </div>
    </form>
  );
}

function TokensTable({ tokens, csrf, now }: { tokens: TokenView[]; csrf: string; now: number }) {
  if (tokens.length === 0) return <p class="muted">You have no personal access tokens yet.</p>;
  return (
    <DataTable caption="Your personal access tokens" columns={["Name", "Scopes", "Created", "Last used", "Expires", "Status"]}>
      {tokens.map((token) => {
        const status = statusOf(token, now);
        return (
          <tr>
            <th scope="row">{token.name}</th>
            <td>{token.scopes.length ? token.scopes.join(", ") : "—"}</td>
            <td>{when(token.created)}</td>
            <td>{token.lastUsed === null ? "Never" : when(token.lastUsed)}</td>
            <td>{token.expiresAt === null ? "Never" : when(token.expiresAt)}</td>
            <td>
              {status === "Active" ? (
                <form
                  class="inline"
                  method="post"
                  action={`${PATH}/tokens/${token.id}/revoke`}
                  data-confirm={`Revoke the token “${token.name}”? Programs using it will stop working.`}
                >
                  <input type="hidden" name="csrf" value={csrf} />
                  <button type="submit" class="danger" aria-label={`Revoke ${token.name}`}>
                    Revoke
                  </button>
                </form>
              ) : (
                status
              )}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

function ApplicationsPage(props: { ctx: PageContext; tokens: TokenView[]; now: number; state?: FormState; created?: { name: string; secret: string }; notice?: string }) {
  const csrf = props.ctx.actor.csrf ?? "";
  return (
    <Layout ctx={props.ctx} title="Applications" scripts={["applications.js"]}>
      <h1>Applications</h1>
      <SettingsNav here={PATH} />
      <p>Personal access tokens let scripts and programs use the REST API as you.</p>
      {props.notice ? (
        <p class="notice ok" role="status">
          {props.notice}
        </p>
      ) : null}
      {props.state?.errors ? (
        <p class="notice error" role="alert">
          The token was not created: see the messages below.
        </p>
      ) : null}
      {props.created ? <NewToken {...props.created} /> : null}
      <CreateForm csrf={csrf} state={props.state ?? {}} />
      <section aria-labelledby="tokens">
        <h2 id="tokens">Your tokens</h2>
        <TokensTable tokens={props.tokens} csrf={csrf} now={props.now} />
      </section>
    </Layout>
  );
}

/** The signed-in user's id; a guest gets the 401 page with its sign-in link. */
function userIdOf(actor: Actor): number {
  if (actor.kind !== "user") throw unauthorized("Sign in to manage your personal access tokens.");
  return actor.userId;
}

export const applicationsPages = (http: ActorContext, deps: PagesDeps) => {
  const { tokens } = deps.services;
  const now = () => deps.services.deps.clock.now();
  const page = async (ctx: PageContext, actor: Actor, extra: { state?: FormState; created?: { name: string; secret: string }; notice?: string } = {}) => (
    <ApplicationsPage ctx={ctx} tokens={await tokens.listTokens(actor, userIdOf(actor))} now={now()} {...extra} />
  );
  return new Elysia()
    .use(http)
    .get(PATH, async ({ actor, request, query }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, () => page(ctx, actor, { notice: query.revoked === "1" ? "The token was revoked." : undefined }));
    })
    .post(`${PATH}/tokens`, async ({ actor, request, body }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const userId = userIdOf(actor);
        const form = formOf(body);
        checkCsrf(actor, form);
        const state: FormState = { name: form.get("name") ?? "", scopes: form.getAll("scopes"), expires: form.get("expires") ?? "" };
        const days = Number(state.expires);
        const expiresAt = state.expires && Number.isInteger(days) && days > 0 ? now() + days * DAY_MS : null;
        try {
          const { token, secret } = await tokens.createToken(actor, { userId, name: state.name!, scopes: state.scopes, expiresAt });
          // The secret goes straight into this answer (never into a URL or a cookie), so a reload cannot show it again.
          return htmlResponse(await page(ctx, actor, { created: { name: token.name, secret } }), 201);
        } catch (error) {
          if (error instanceof HttpError && error.status === 400 && error.errors) return htmlResponse(await page(ctx, actor, { state: { ...state, errors: error.errors } }), 400);
          throw error;
        }
      });
    })
    .post(`${PATH}/tokens/:id/revoke`, async ({ actor, request, body, params }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        userIdOf(actor);
        checkCsrf(actor, formOf(body));
        const id = Number(params.id);
        if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, `No token with id ${params.id}.`);
        await tokens.revokeToken(actor, id);
        return seeOther(`${PATH}?revoked=1`);
      });
    });
};

/** The routes of this file that take forms (the hooks parse their bodies). */
export const APPLICATIONS_FORM_ROUTES = [`POST ${PATH}/tokens`, `POST ${PATH}/tokens/:id/revoke`];
