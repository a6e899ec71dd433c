// Health: the administration's first screen (also at /administration itself).
import { Elysia } from "elysia";
import type { Actor } from "../../core/actor";
import type { ActorContext } from "../../core/http";
import type { PageContext } from "../layout";
import { ADMIN, renderAdmin } from "./frame";
import { HealthPage, HEALTH } from "./health";
import type { AdminKit } from "./kit";

export const healthRoutes = (http: ActorContext, kit: AdminKit) => {
  const { deps, services } = kit;
  const healthPage = async (ctx: PageContext, actor: Actor) => <HealthPage ctx={ctx} health={await services.health.readHealth(actor)} mailOff={kit.mailOff()} />;
  return new Elysia()
    .use(http)
    .get(ADMIN, async ({ actor, request }) => renderAdmin(deps, actor, request, (ctx) => healthPage(ctx, actor)))
    .get(HEALTH, async ({ actor, request }) => renderAdmin(deps, actor, request, (ctx) => healthPage(ctx, actor)));
};

export const HEALTH_FORM_ROUTES: string[] = [];
