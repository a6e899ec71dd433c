// The `sessions-clean` job: sessions that ended (unused for a week, or a month old) are deleted, and
// so are the counts of failed sign-ins nobody added to for an hour.
import type { JobRegistry } from "../jobs/registry";
import type { SessionsService } from "./service";

export function defineSessionJobs(registry: JobRegistry, deps: { sessions: SessionsService }) {
  registry.define({
    name: "sessions-clean",
    description: "Deletes browser sessions that have ended and forgotten counts of failed sign-ins.",
    schedule: { dailyAt: "00:07" },
    run: async () => ({ deleted: await deps.sessions.deleteExpired(), throttles: await deps.sessions.deleteForgottenThrottles() }),
  });
}
