// The daily clean-up of account links past their expiry and of provider sign-ins nobody came back from.
import type { JobRegistry } from "../jobs/registry";
import type { OidcService } from "./oidc";
import type { AccountsService } from "./service";

export const ACCOUNT_LINKS_CLEANUP_JOB = "account-links-cleanup";

export function defineAccountJobs(registry: JobRegistry, deps: { accounts: AccountsService; oidc: OidcService }) {
  registry.define({
    name: ACCOUNT_LINKS_CLEANUP_JOB,
    description: "Deletes e-mail confirmation, password-reset and e-mail change links past their expiry, and provider sign-ins nobody came back from.",
    schedule: { dailyAt: "00:17" },
    run: async () => ({ deleted: await deps.accounts.deleteExpiredLinks(), pendingSignIns: await deps.oidc.deleteExpiredPending() }),
  });
}
