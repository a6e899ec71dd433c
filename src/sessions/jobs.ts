// The `sessions-clean` job: sessions that ended (unused for a week, or a month old) are deleted.
import type { JobRegistry } from "../jobs/registry";
import type { SessionsService } from "./service";

export function defineSessionJobs(registry: JobRegistry, deps: { sessions: SessionsService }) {
  registry.define({
    name: "sessions-clean",
    description: "Deletes browser sessions that have ended.",
    schedule: { dailyAt: "00:07" },
    run: () => ({ deleted: deps.sessions.deleteExpired() }),
  });
}
