// Communities: the search, one community with its featured periods, feature for a period, remove a
// period (confirmed), delete (confirmed).
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import { HttpError, notFound } from "../../core/errors";
import type { ActorContext } from "../../core/http";
import { checkCsrf, formOf, htmlResponse, seeOther } from "../http";
import type { PageContext } from "../layout";
import { COMMUNITIES, CommunitiesPage, CommunityPage, DeleteCommunityPage, RemovePeriodPage, type FeaturedPeriod, type FeatureForm } from "./communities";
import { renderAdmin } from "./frame";
import { text, type AdminKit } from "./kit";

type Json = Record<string, any>;

const DONE: Record<string, string> = {
  featured: "The community is featured for that period.",
  removed: "The featured period was removed.",
  deleted: "The community was deleted.",
};

/** A datetime-local value (`2026-11-27T10:00`, no zone) as the featured API's UTC time; "" stays empty (no end). */
function utc(value: string): string {
  const v = value.trim();
  return v === "" || /(?:Z|[+-]\d{2}:?\d{2})$/i.test(v) ? v : `${v}Z`;
}

export const communitiesRoutes = (http: ActorContext, kit: AdminKit) => {
  const { deps } = kit;
  const { communities } = kit.services;

  async function communityPage(ctx: PageContext, actor: Actor, key: string, form: FeatureForm, notice?: string) {
    const community = (await communities.readCommunity(actor, key)) as Json;
    const periods = ((await communities.listFeatured(actor, community.id)) as Json).hits.hits as FeaturedPeriod[];
    return <CommunityPage ctx={ctx} mailOff={kit.mailOff()} community={community} periods={periods} form={form} notice={notice} />;
  }

  /** The community and one of its featured periods; 404 when it has no such period. */
  async function periodOf(actor: Actor, key: string, rawId: string) {
    const community = (await communities.readCommunity(actor, key)) as Json;
    const periods = ((await communities.listFeatured(actor, community.id)) as Json).hits.hits as FeaturedPeriod[];
    const period = periods.find((p) => String(p.id) === rawId);
    if (!period) throw notFound(`The featured entry ${rawId} of this community does not exist.`);
    return { community, period };
  }

  return new Elysia()
    .use(http)
    .get(COMMUNITIES, async ({ actor, request, query }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const q = text(query.q);
        const result = (await communities.searchCommunities(actor, {
          q,
          page: text(query.page) || undefined,
          size: text(query.size) || "20",
          sort: q ? undefined : "newest",
        })) as Json;
        const page = Number(text(query.page) || 1);
        const size = Number(text(query.size) || 20);
        return <CommunitiesPage ctx={ctx} mailOff={kit.mailOff()} q={q} result={result} page={page} size={size} notice={DONE[text(query.done)]} />;
      }),
    )
    .get(`${COMMUNITIES}/:id`, async ({ actor, request, params, query }) =>
      renderAdmin(deps, actor, request, (ctx) => communityPage(ctx, actor, params.id, { start: "", end: "" }, DONE[text(query.done)])),
    )
    .post(`${COMMUNITIES}/:id/featured`, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const form = formOf(body);
        checkCsrf(actor, form);
        const input = { start: form.get("start") ?? "", end: form.get("end") ?? "" };
        const community = (await communities.readCommunity(actor, params.id)) as Json;
        try {
          await communities.createFeatured(actor, community.id, { start_date: utc(input.start), end_date: utc(input.end) || null }, kit.origin(request, server));
        } catch (error) {
          if (error instanceof HttpError && error.status === 400 && error.errors)
            return htmlResponse(await communityPage(ctx, actor, community.id, { ...input, errors: error.errors }), 400);
          throw error;
        }
        return seeOther(`${COMMUNITIES}/${community.id}?done=featured`);
      }),
    )
    .get(`${COMMUNITIES}/:id/featured/:featuredId/remove`, async ({ actor, request, params }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const { community, period } = await periodOf(actor, params.id, params.featuredId);
        return <RemovePeriodPage ctx={ctx} mailOff={kit.mailOff()} community={community} period={period} />;
      }),
    )
    .post(`${COMMUNITIES}/:id/featured/:featuredId/remove`, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async () => {
        checkCsrf(actor, formOf(body));
        const { community, period } = await periodOf(actor, params.id, params.featuredId);
        await communities.deleteFeatured(actor, community.id, String(period.id), kit.origin(request, server));
        return seeOther(`${COMMUNITIES}/${community.id}?done=removed`);
      }),
    )
    .get(`${COMMUNITIES}/:id/delete`, async ({ actor, request, params }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const community = (await communities.readCommunity(actor, params.id)) as Json;
        return <DeleteCommunityPage ctx={ctx} mailOff={kit.mailOff()} community={community} />;
      }),
    )
    .post(`${COMMUNITIES}/:id/delete`, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async () => {
        checkCsrf(actor, formOf(body));
        const community = (await communities.readCommunity(actor, params.id)) as Json;
        await communities.deleteCommunity(actor, community.id, null, kit.origin(request, server));
        return seeOther(`${COMMUNITIES}?done=deleted`);
      }),
    );
};

export const COMMUNITIES_FORM_ROUTES = [`POST ${COMMUNITIES}/:id/featured`, `POST ${COMMUNITIES}/:id/featured/:featuredId/remove`, `POST ${COMMUNITIES}/:id/delete`];
