// The daily clean-up of account links past their expiry, of provider sign-ins nobody came back from,
// and of SAML requests and replay records past their expiry.
import type { JobRegistry } from "../jobs/registry";
import type { OidcService } from "./oidc";
import type { SamlService } from "./saml";
import type { AccountsService } from "./service";

export const ACCOUNT_LINKS_CLEANUP_JOB = "account-links-cleanup";

export function defineAccountJobs(registry: JobRegistry, deps: { accounts: AccountsService; oidc: OidcService; saml: SamlService }) {
  registry.define({
    name: ACCOUNT_LINKS_CLEANUP_JOB,
    description:
      "Deletes e-mail confirmation, password-reset and e-mail change links past their expiry, provider sign-ins nobody came back from, and SAML requests and replay records past their expiry.",
    schedule: { dailyAt: "00:17" },
    run: async () => ({ deleted: await deps.accounts.deleteExpiredLinks(), pendingSignIns: await deps.oidc.deleteExpiredPending(), saml: await deps.saml.deleteExpired() }),
  });
}
