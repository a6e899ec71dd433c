// The deposit pages: /uploads/new and /uploads/{id} (a draft's self_html), whose script works
// through the REST API, and the two forms that open a published record for editing or start a
// new version (for the dashboard and the landing page; they work without scripts).
import { EditButtons } from "../forms";
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import { HttpError } from "../../core/errors";
import type { ActorContext } from "../../core/http";
import { formatDate } from "../../core/time";
import { registerAsset } from "../assets";
import { pageContextOf, renderOrError, type PagesDeps } from "../context";
import { checkCsrf, formOf, seeOther } from "../http";
import { Layout, type PageContext } from "../layout";
import depositJs from "../static/deposit.js" with { type: "text" };
import depositFieldsJs from "../static/deposit-fields.js" with { type: "text" };
import depositCreatorsFundingJs from "../static/deposit-creators-funding.js" with { type: "text" };
import depositRowsJs from "../static/deposit-rows.js" with { type: "text" };
import depositMetadataJs from "../static/deposit-metadata.js" with { type: "text" };
import depositFilesJs from "../static/deposit-files.js" with { type: "text" };
import { AwaitingModerationNotice, isAwaitingModeration } from "../moderation";
import { DepositForm, type DepositView } from "./form";
import { depositChoices } from "./choices";
import { fileNamePartsJs, identifierSchemesJs } from "./schemes-asset";

// In this order: scheme detection (shared with the server's checks) and file-name break points
// (shared with the landing page), the building blocks, the creator and funding rows and the other
// metadata rows, the uploads, then the form that uses them.
const SCRIPTS = [
  "identifier-schemes.js",
  "file-name-parts.js",
  "deposit-fields.js",
  "deposit-creators-funding.js",
  "deposit-rows.js",
  "deposit-metadata.js",
  "deposit-files.js",
  "deposit.js",
];
registerAsset("identifier-schemes.js", identifierSchemesJs);
registerAsset("file-name-parts.js", fileNamePartsJs);
registerAsset("deposit-fields.js", depositFieldsJs);
registerAsset("deposit-creators-funding.js", depositCreatorsFundingJs);
registerAsset("deposit-rows.js", depositRowsJs);
registerAsset("deposit-metadata.js", depositMetadataJs);
registerAsset("deposit-files.js", depositFilesJs);
registerAsset("deposit.js", depositJs);

type Json = Record<string, any>;

const signInFirst = (ctx: PageContext) => seeOther(`/login?next=${encodeURIComponent(ctx.here)}`);

/** What the form offers besides the draft: resource types, communities to submit to, DOIs. */
async function viewOf(deps: PagesDeps, actor: Actor, draft: Json | null): Promise<DepositView> {
  const { services } = deps;
  const choices = await depositChoices(deps, actor);
  const mine = ((await services.communities.searchUserCommunities(actor, { size: "100" })) as Json).hits.hits as Json[];
  const mineIds = new Set(mine.map((c) => c.id));
  const all = ((await services.communities.searchCommunities(actor, { size: "100" })) as Json).hits.hits as Json[];
  return {
    draft,
    choices,
    communities: { mine, others: all.filter((c) => !mineIds.has(c.id)) },
    doisEnabled: Boolean(services.deps.config.DATACITE_PREFIX),
    siteName: deps.siteName,
    today: formatDate(services.deps.clock.now()),
    firstCreator: actor.kind === "user" ? creatorOf(await services.users.readAccount(actor, actor.userId)) : { person_or_org: { type: "personal" } },
    storage: {
      record: draft ? await services.quotas.readRecordUsage(actor, String(draft.id)) : null,
      // The depositor's own total (a draft shared with them counts against its owner's, shown to the owner).
      user: actor.kind === "user" ? await services.quotas.readUserUsage(actor, actor.userId) : null,
    },
  };
}

/**
 * The depositor as a creator: "Family, Given" or "Given Family" (the last word as the family
 * name), the ORCID iD as an identifier, the affiliation by name.
 */
export function creatorOf(profile: { fullName: string; orcid: string | null; affiliations: string }): Json {
  const name = profile.fullName.trim();
  const comma = name.indexOf(",");
  const space = name.lastIndexOf(" ");
  const [family, given] = comma > 0 ? [name.slice(0, comma).trim(), name.slice(comma + 1).trim()] : space > 0 ? [name.slice(space + 1), name.slice(0, space)] : [name, ""];
  return {
    person_or_org: {
      type: "personal",
      ...(family ? { family_name: family } : {}),
      ...(given ? { given_name: given } : {}),
      ...(profile.orcid ? { identifiers: [{ scheme: "orcid", identifier: profile.orcid }] } : {}),
    },
    ...(profile.affiliations.trim() ? { affiliations: [{ name: profile.affiliations.trim() }] } : {}),
  };
}

function DepositPage({ ctx, view }: { ctx: PageContext; view: DepositView }) {
  const draft = view.draft;
  const heading = !draft ? "New upload" : draft.status === "published" ? "Edit a published record" : draft.status === "new_version_draft" ? "New version" : "Edit draft";
  return (
    <Layout ctx={ctx} title={heading} scripts={SCRIPTS}>
      <h1>{heading}</h1>
      {isAwaitingModeration(draft) ? <AwaitingModerationNotice /> : null}
      {draft?.status === "published" ? (
        <p class="notice">
          Changes are saved to a draft; the published record changes when you publish again. <a href={`/records/${draft.id}`}>The published record</a>
        </p>
      ) : null}
      <noscript>
        <p class="notice error">The upload form needs JavaScript: it sends the files and the metadata to the REST API.</p>
      </noscript>
      <DepositForm view={view} />
    </Layout>
  );
}

/** /uploads/{id} of a published record without a draft: the ways to change it (forms to the routes below). */
function PublishedPage({ ctx, record }: { ctx: PageContext; record: Json }) {
  const id = encodeURIComponent(String(record.id));
  return (
    <Layout ctx={ctx} title="Published record">
      <h1>{String(record.metadata?.title ?? record.id)}</h1>
      <p>
        This record is published. <a href={`/records/${id}`}>View it</a>, edit its metadata (its files stay as published), or start a new version to change the files.
      </p>
      <EditButtons ctx={ctx} id={id} />
    </Layout>
  );
}

/** The draft, or (no draft, a published record) null with the record: the services decide what the caller may read. */
async function draftOrRecord(deps: PagesDeps, actor: Actor, id: string): Promise<{ draft: Json | null; record?: Json }> {
  try {
    return { draft: (await deps.services.records.readDraft(actor, id)) as Json };
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 404) throw error;
    try {
      return { draft: null, record: (await deps.services.records.readRecord(actor, id)) as Json };
    } catch {
      throw error;
    }
  }
}

export const depositPages = (http: ActorContext, deps: PagesDeps) =>
  new Elysia()
    .use(http)
    .get("/uploads/new", async ({ actor, request }) => {
      const ctx = await pageContextOf(deps, actor, request);
      if (actor.kind !== "user") return signInFirst(ctx);
      return renderOrError(ctx, async () => <DepositPage ctx={ctx} view={await viewOf(deps, actor, null)} />);
    })
    .get("/uploads/:id", async ({ actor, request, params }) => {
      const ctx = await pageContextOf(deps, actor, request);
      if (actor.kind !== "user") return signInFirst(ctx);
      return renderOrError(ctx, async () => {
        const { draft, record } = await draftOrRecord(deps, actor, params.id);
        if (record) return <PublishedPage ctx={ctx} record={record} />;
        return <DepositPage ctx={ctx} view={await viewOf(deps, actor, draft)} />;
      });
    })
    .post("/uploads/:id/edit", async ({ actor, request, params, body }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        checkCsrf(actor, formOf(body));
        const draft = (await deps.services.records.editRecord(actor, params.id)) as Json;
        return seeOther(`/uploads/${encodeURIComponent(draft.id)}`);
      });
    })
    .post("/uploads/:id/new-version", async ({ actor, request, params, body }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        checkCsrf(actor, formOf(body));
        const draft = (await deps.services.records.newVersion(actor, params.id)) as Json;
        return seeOther(`/uploads/${encodeURIComponent(draft.id)}`);
      });
    });

/** The routes of this group that take forms (the hooks parse their bodies). */
export const DEPOSIT_FORM_ROUTES = ["POST /uploads/:id/edit", "POST /uploads/:id/new-version"];
