// Statistics: the charts of a period and its COUNTER Dataset Report as a download.
import { Elysia } from "elysia";
import type { ActorContext } from "../../core/http";
import { renderAdmin } from "./frame";
import type { AdminKit } from "./kit";
import { STATISTICS, STATISTICS_REPORT, StatisticsPage } from "./statistics";

export const statisticsRoutes = (http: ActorContext, kit: AdminKit) => {
  const { deps, services } = kit;
  const counting = services.deps.config.STATS_ENABLED;
  return new Elysia()
    .use(http)
    .get(STATISTICS, async ({ actor, request, query }) =>
      renderAdmin(deps, actor, request, async (ctx) => (
        <StatisticsPage ctx={ctx} mailOff={kit.mailOff()} overview={await services.stats.readOverview(actor, { period: query.period })} counting={counting} />
      )),
    )
    .get(STATISTICS_REPORT, async ({ actor, request, query }) =>
      renderAdmin(deps, actor, request, async () => {
        const { from, to, report } = await services.stats.exportPeriodReport(actor, { period: query.period });
        return new Response(JSON.stringify(report, null, 2), {
          headers: { "Content-Type": "application/json; charset=utf-8", "Content-Disposition": `attachment; filename="counter-dsr-${from}-${to}.json"` },
        });
      }),
    );
};

export const STATISTICS_FORM_ROUTES: string[] = [];
