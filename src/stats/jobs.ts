// Background jobs of statistics: aggregation (also run seconds after new events by the service's
// own timer; the schedule is the safety net, and `cairn jobs run stats-aggregate` forces it) and
// the pruning of raw events past their retention.
import type { JobRegistry } from "../jobs/registry";
import type { StatsService } from "./service";

export function defineStatsJobs(registry: JobRegistry, stats: StatsService) {
  registry.define({
    name: "stats-aggregate",
    description: "Folds new view and download events into the daily and all-time statistics.",
    schedule: { everyMs: 300_000 },
    run: (_payload, ctx) => stats.aggregate({ signal: ctx.signal }),
  });
  registry.define({
    name: "stats-prune-events",
    description: "Deletes aggregated view/download events older than STATS_EVENTS_RETENTION_DAYS.",
    schedule: { dailyAt: "03:40" },
    run: () => stats.pruneEvents(),
  });
}
