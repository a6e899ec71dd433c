// The community pages: /communities (list and search), /communities/new, /communities/{slug} (its
// records search), /communities/{slug}/settings, /communities/{slug}/members with their forms and
// /communities/{slug}/requests (its curation queue).
// Every read and change goes through the communities and members services with the caller's actor.
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import { forbidden, HttpError, unauthorized, validationError } from "../../core/errors";
import type { ActorContext } from "../../core/http";
import { pageContextOf, renderOrError, type PagesDeps } from "../context";
import { checkCsrf, formOf, htmlResponse, seeOther } from "../http";
import type { PageContext } from "../layout";
import { runSearch } from "../search/cards";
import { searchLimits } from "../search/results";
import { searchStateOf } from "../search/state";
import { bodyOf, NEW_COMMUNITY, valuesFromForm, valuesOf, type CommunityFormValues } from "./form";
import { MembersPage, membersView, type InviteValues, type MembersNotice } from "./members";
import { pageOf } from "../dashboard/parts";
import { requestsListingOf } from "../dashboard/requests";
import { canSeeRequests, checkSettings, hasLogo, pathOf } from "./parts";
import { communityRequestsView, CommunityRequestsPage } from "./requests";
import { CommunitiesListPage, CommunityPage, NewCommunityPage, SettingsPage } from "./view";

type Json = Record<string, any>;

const MEMBERS_PAGE_SIZE = 50;
const REQUESTS_PAGE_SIZE = 20;
const DONE: Record<string, string> = {
  invited: "The invitation was sent. It is on the invited person's dashboard.",
  role: "The role was changed.",
  removed: "The member was removed.",
};
const SETTINGS_FIELDS: (keyof CommunityFormValues)[] = ["title", "description", "type", "website", "curation_policy", "page"];

const signInFirst = (ctx: PageContext) => seeOther(`/login?next=${encodeURIComponent(ctx.here)}`);

/** A guest's form: the 401 page with its sign-in link (there is no session, so no CSRF token to check). */
function requireSignedIn(actor: Actor, doing: string) {
  if (actor.kind !== "user") throw unauthorized(`Sign in to ${doing}.`);
}

/** The communitytypes vocabulary as [id, title], for the type select. */
async function communityTypes(deps: PagesDeps, actor: Actor): Promise<[string, string][]> {
  const result = (await deps.services.vocabularies.search(actor, "communitytypes", { size: "100" })) as Json;
  return ((result.hits?.hits ?? []) as Json[]).map((t) => [String(t.id), String(t.title?.en ?? t.id)]);
}

/** A plain-text message as the HTML the members service stores (escaped, paragraphs kept). */
const messageHtml = (text: string) =>
  text
    .trim()
    .split(/\r?\n\s*\r?\n/)
    .map((p) => `<p>${Bun.escapeHTML(p).replace(/\r?\n/g, "<br>")}</p>`)
    .join("");

/** The user a login names, as the users directory shows them to the caller: an exact username, or an e-mail address the caller may see. */
async function findInvitee(deps: PagesDeps, actor: Actor, login: string): Promise<Json | null> {
  if (!login) return null;
  const wanted = login.toLowerCase();
  const found = (await deps.services.users.searchUsers(actor, { q: login })) as Json;
  return ((found.hits?.hits ?? []) as Json[]).find((u) => String(u.username ?? "").toLowerCase() === wanted || String(u.email ?? "").toLowerCase() === wanted) ?? null;
}

/** A change refused with a 400 or 403 is shown on the members page beside its form; other refusals become the error page. */
function shownRefusal(error: unknown): HttpError | null {
  return error instanceof HttpError && (error.status === 400 || error.status === 403 || error.status === 412) ? error : null;
}

/** The refusal of "New community" to someone other than an administrator when only administrators create communities. */
const CREATION_CLOSED = "Only administrators may create communities in this repository.";

export const communitiesPages = (http: ActorContext, deps: PagesDeps) => {
  const { communities, members } = deps.services;
  const limits = () => searchLimits(deps);

  const membersPage = async (ctx: PageContext, actor: Actor, request: Request, slug: string, status = 200, notice?: MembersNotice, invite?: InviteValues) => {
    const state = searchStateOf(request, `/communities/${encodeURIComponent(slug)}/members`, MEMBERS_PAGE_SIZE);
    const view = await membersView(deps, actor, slug, state);
    return htmlResponse(<MembersPage ctx={ctx} view={view} state={state} maxWindow={limits().maxWindow} notice={notice} invite={invite} />, status);
  };

  /** Runs a members form: CSRF first, then the change; a refusal shows the members page with its message. */
  const changeMembers = async (
    actor: Actor,
    request: Request,
    slug: string,
    body: unknown,
    change: (form: URLSearchParams) => Promise<string>,
    invite?: (form: URLSearchParams) => InviteValues,
  ) => {
    const ctx = await pageContextOf(deps, actor, request);
    return renderOrError(ctx, async () => {
      requireSignedIn(actor, "manage members");
      const form = formOf(body);
      checkCsrf(actor, form);
      try {
        return seeOther(await change(form));
      } catch (error) {
        const refused = shownRefusal(error);
        if (!refused) throw error;
        return await membersPage(ctx, actor, request, slug, refused.status, { ok: false, text: refused.message, errors: refused.errors }, invite?.(form));
      }
    });
  };

  return new Elysia()
    .use(http)
    .get("/communities", async ({ actor, request }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const state = searchStateOf(request, "/communities", limits().defaultSize);
        const outcome = await runSearch(() => communities.searchCommunities(actor, state.query));
        const hits = (outcome.result?.hits?.hits ?? []) as Json[];
        const has = await Promise.all(hits.map((c) => hasLogo(deps, actor, String(c.id))));
        const logos = new Set(hits.filter((_, i) => has[i]).map((c) => String(c.id)));
        const canCreate = await communities.mayCreate(actor);
        return htmlResponse(<CommunitiesListPage ctx={ctx} deps={deps} state={state} outcome={outcome} logos={logos} canCreate={canCreate} />, outcome.status);
      });
    })
    .get("/communities/new", async ({ actor, request }) => {
      const ctx = await pageContextOf(deps, actor, request);
      if (actor.kind !== "user") return signInFirst(ctx);
      return renderOrError(ctx, async () => {
        // COMMUNITIES_CREATION `administrators`: the form is refused as the service would refuse it.
        if (!(await communities.mayCreate(actor))) throw forbidden(CREATION_CLOSED);
        return <NewCommunityPage ctx={ctx} types={await communityTypes(deps, actor)} values={NEW_COMMUNITY} />;
      });
    })
    .post("/communities/new", async ({ actor, request, body }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        requireSignedIn(actor, "create a community");
        const form = formOf(body);
        checkCsrf(actor, form);
        const values = valuesFromForm(form);
        try {
          const created = (await communities.createCommunity(actor, bodyOf(values))) as Json;
          return seeOther(`${pathOf(created)}?created=1`);
        } catch (error) {
          if (!(error instanceof HttpError) || error.status !== 400) throw error;
          const errors = error.errors ?? [{ field: "", messages: [error.message] }];
          return htmlResponse(<NewCommunityPage ctx={ctx} types={await communityTypes(deps, actor)} values={values} errors={errors} />, 400);
        }
      });
    })
    .get("/communities/:slug", async ({ actor, request, params }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const community = (await communities.readCommunity(actor, params.slug)) as Json;
        const url = new URL(request.url);
        // Addressed by its UUID (or another case): the page lives at its slug, as self_html says.
        if (params.slug !== community.slug) return new Response(null, { status: 301, headers: { Location: `${pathOf(community)}${url.search}` } });
        const state = searchStateOf(request, pathOf(community), limits().defaultSize);
        const outcome = await runSearch(() => communities.searchRecords(actor, community.id, state.query));
        const logo = await hasLogo(deps, actor, community.id);
        const settings = (await communities.permissionsOf(actor, community.id)).can_update;
        const requests = await canSeeRequests(deps, actor, community.id);
        const page = (
          <CommunityPage
            ctx={ctx}
            deps={deps}
            community={community}
            hasLogo={logo}
            members={true}
            settings={settings}
            requests={requests}
            state={state}
            outcome={outcome}
            notice={url.searchParams.get("created") === "1" ? "The community was created: you are its owner." : undefined}
          />
        );
        return htmlResponse(page, outcome.status);
      });
    })
    .get("/communities/:slug/settings", async ({ actor, request, params }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const community = (await communities.readCommunity(actor, params.slug)) as Json;
        checkSettings(await communities.permissionsOf(actor, community.id), actor);
        const saved = new URL(request.url).searchParams.get("saved") === "1";
        const logo = await hasLogo(deps, actor, community.id);
        const types = await communityTypes(deps, actor);
        return (
          <SettingsPage
            ctx={ctx}
            community={community}
            hasLogo={logo}
            types={types}
            values={valuesOf(community)}
            revision={Number(community.revision_id)}
            notice={saved ? { ok: true, text: "The settings were saved." } : undefined}
          />
        );
      });
    })
    .post("/communities/:slug/settings", async ({ actor, request, params, body }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        requireSignedIn(actor, "change a community's settings");
        const form = formOf(body);
        checkCsrf(actor, form);
        const community = (await communities.readCommunity(actor, params.slug)) as Json;
        const values = valuesFromForm(form);
        const revision = form.get("revision");
        try {
          await communities.updateCommunity(actor, community.id, bodyOf(values, community, SETTINGS_FIELDS), revision ? `"${revision}"` : null);
          return seeOther(`${pathOf(community)}/settings?saved=1`);
        } catch (error) {
          if (!(error instanceof HttpError) || (error.status !== 400 && error.status !== 412)) throw error;
          // A 412: someone saved in between. The form keeps what was typed, with the current revision, so saving again overwrites knowingly.
          const notice =
            error.status === 412
              ? {
                  ok: false,
                  text: "Someone else changed these settings while you were editing. Your values are still in the form: save again to replace theirs, or reload the page to see them.",
                }
              : { ok: false, text: "The settings were not saved: see the messages below." };
          const logo = await hasLogo(deps, actor, community.id);
          const types = await communityTypes(deps, actor);
          const page = (
            <SettingsPage
              ctx={ctx}
              community={community}
              hasLogo={logo}
              types={types}
              values={values}
              errors={error.errors}
              revision={Number(community.revision_id)}
              notice={notice}
            />
          );
          return htmlResponse(page, error.status);
        }
      });
    })
    .get("/communities/:slug/requests", async ({ actor, request, params, query }) => {
      const ctx = await pageContextOf(deps, actor, request);
      // A guest gets the requests service's 401 (with a sign-in link), as on the settings page.
      return renderOrError(ctx, async () => {
        const listing = requestsListingOf(query, pageOf(query), REQUESTS_PAGE_SIZE);
        return <CommunityRequestsPage ctx={ctx} view={await communityRequestsView(deps, actor, params.slug, listing)} listing={listing} />;
      });
    })
    .get("/communities/:slug/members", async ({ actor, request, params }) => {
      const ctx = await pageContextOf(deps, actor, request);
      return renderOrError(ctx, async () => {
        const done = DONE[new URL(request.url).searchParams.get("done") ?? ""];
        return await membersPage(ctx, actor, request, params.slug, 200, done ? { ok: true, text: done } : undefined);
      });
    })
    .post("/communities/:slug/members/invitations", ({ actor, request, params, body }) =>
      changeMembers(
        actor,
        request,
        params.slug,
        body,
        async (form) => {
          const login = (form.get("member") ?? "").trim();
          const invitee = await findInvitee(deps, actor, login);
          if (!invitee) {
            throw validationError(
              [
                {
                  field: "members.0.id",
                  messages: [login ? `No user “${login}” was found: give their username, or an e-mail address they have made public.` : "Give a username or an e-mail address."],
                },
              ],
              "Nobody was invited.",
            );
          }
          const message = (form.get("message") ?? "").trim();
          await members.inviteMembers(actor, params.slug, {
            members: [{ type: "user", id: String(invitee.id) }],
            role: form.get("role") ?? "",
            ...(message ? { message: messageHtml(message) } : {}),
          });
          return `/communities/${encodeURIComponent(params.slug)}/members?done=invited`;
        },
        (form) => ({ member: form.get("member") ?? "", role: form.get("role") ?? "reader", message: form.get("message") ?? "" }),
      ),
    )
    .post("/communities/:slug/members/role", ({ actor, request, params, body }) =>
      changeMembers(actor, request, params.slug, body, async (form) => {
        await members.updateMembers(actor, params.slug, { members: [{ type: form.get("type") ?? "", id: form.get("id") ?? "" }], role: form.get("role") ?? "" });
        return `/communities/${encodeURIComponent(params.slug)}/members?done=role`;
      }),
    )
    .post("/communities/:slug/members/remove", ({ actor, request, params, body }) =>
      changeMembers(actor, request, params.slug, body, async (form) => {
        const type = form.get("type") ?? "";
        const id = form.get("id") ?? "";
        await members.removeMembers(actor, params.slug, { members: [{ type, id }] });
        // Someone who left may no longer see the community (a restricted one): back to the list.
        const left = type === "user" && actor.kind === "user" && id === String(actor.userId);
        return left ? "/communities" : `/communities/${encodeURIComponent(params.slug)}/members?done=removed`;
      }),
    );
};

/** The routes of this group that take forms (the hooks parse their bodies). */
export const COMMUNITIES_FORM_ROUTES = [
  "POST /communities/new",
  "POST /communities/:slug/settings",
  "POST /communities/:slug/members/invitations",
  "POST /communities/:slug/members/role",
  "POST /communities/:slug/members/remove",
];
