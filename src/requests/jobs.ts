// The `requests-expire` job: open requests past their expiry become `expired` (InvenioRDM's daily task at 00:03).
import type { JobRegistry } from "../jobs/registry";
import type { RequestsService } from "./service";

export const EXPIRE_JOB = "requests-expire";

export function defineRequestJobs(registry: JobRegistry, deps: { requests: RequestsService }) {
  registry.define({
    name: EXPIRE_JOB,
    description: "Expires open requests (invitations, membership requests...) whose expiry date has passed, and notifies their parties.",
    schedule: { dailyAt: "00:03" },
    run: () => deps.requests.expireOverdue(),
  });
}
