// The `mail-send` job: delivers the outbox every minute (a no-op without MAIL_SERVER).
import type { JobRegistry } from "../jobs/registry";
import type { MailService } from "./service";

export const MAIL_SEND_JOB = "mail-send";

export function defineMailJobs(registry: JobRegistry, deps: { mail: MailService }) {
  registry.define({
    name: MAIL_SEND_JOB,
    description: "Delivers queued notification mail over SMTP (MAIL_SERVER); without a server, mail stays in the outbox.",
    schedule: { everyMs: 60_000 },
    // The outbox keeps its own attempts and backoff per message; a failed run needs no job retry.
    maxAttempts: 1,
    run: () => deps.mail.deliverPending(),
  });
}
