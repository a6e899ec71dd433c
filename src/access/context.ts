// What the access operations share: the database, the clock, the records side (which record an
// URL names, whether the caller manages it, ownership), secret-link tokens and mail.
import type { AuditService } from "../audit/service";
import type { Deps } from "../core/deps";
import type { RecordSharing } from "../records/sharing";
import type { LinkTokens } from "./tokens";

export interface AccessDeps extends Deps {
  /** The records service's `sharing` (records/sharing.ts). */
  sharing: RecordSharing;
  /** The access directory's secret-link tokens (signed with the server's key). */
  tokens: LinkTokens;
  /** The audit log: an administrator giving someone else's record a new owner is recorded in the change's transaction. */
  audit: Pick<AuditService, "record">;
  /** Queues a mail (the mail service): grants created with `notify` tell their user. */
  queueMail?(mail: { to: string; subject: string; body: string; topic: string }): unknown;
}

export type AccessContext = AccessDeps;
