// A user's storage quota in the administration: the "Set quota" form (sizes written as settings
// take them, 20GB or bytes) with the user's usage beside it.
import type { FieldError } from "../../core/errors";
import type { QuotaUsage } from "../../quotas/model";
import { CsrfField, TextField } from "../forms";
import { FormAlert } from "../guest-forms";
import type { PageContext } from "../layout";
import { formatSize } from "../record/files";
import { StorageUsage } from "../storage";
import { ADMIN, AdminPage } from "./frame";

// users.tsx's USERS, not imported: users.tsx shows UserStorage below.
const USERS = `${ADMIN}/users`;

export const quotaPath = (userId: number | string) => `${USERS}/${userId}/quota`;
/** Its route (a literal, so the router types `params.id`). */
export const QUOTA_ROUTE = `${ADMIN}/users/:id/quota` as const;

/** The user's page's part: what their files take, their quota, and the way to set it. */
export function UserStorage({ userId, usage }: { userId: number | string; usage: QuotaUsage }) {
  return (
    <section class="card" aria-labelledby="storage-heading">
      <h2 id="storage-heading">Storage</h2>
      <StorageUsage label="All their drafts and records" usage={usage} />
      <p>
        <a href={quotaPath(userId)}>Set quota</a>
      </p>
    </section>
  );
}

/** What the form sent, shown again when it is refused. */
export interface QuotaForm {
  quota_size: string;
  max_file_size: string;
  notes: string;
}

export function QuotaPage(props: {
  ctx: PageContext;
  mailOff: boolean;
  user: { id: number | string; email?: string | null };
  usage: QuotaUsage;
  /** The largest file when none is set for the user (RDM_FILES_DEFAULT_MAX_FILE_SIZE). */
  defaultMaxFileSize: number;
  form: QuotaForm;
  errors?: FieldError[];
  notice?: string;
}) {
  const { ctx, user, usage, form, errors } = props;
  const who = user.email ?? `user ${user.id}`;
  return (
    <AdminPage ctx={ctx} title={`Storage quota of ${who}`} screen={USERS} mailOff={props.mailOff} notice={props.notice}>
      <p>
        <a href={`${USERS}/${user.id}`}>Back to {who}</a>
      </p>
      <section class="card" aria-labelledby="usage-heading">
        <h2 id="usage-heading">Storage used</h2>
        <StorageUsage label="All their drafts and records" usage={usage} />
        <p class="muted">{usage.custom ? `Set by an administrator${usage.notes ? `: ${usage.notes}` : "."}` : "The default quota (RDM_FILES_DEFAULT_USER_QUOTA_SIZE) applies."}</p>
      </section>
      <form class="card" method="post" action={quotaPath(user.id)}>
        <h2>Set quota</h2>
        <FormAlert errors={errors} />
        <CsrfField ctx={ctx} />
        <TextField
          field="quota_size"
          label="Quota"
          required
          value={form.quota_size}
          errors={errors}
          hint="The most their files take across all their drafts and records: 20GB, 500MiB or a number of bytes (units of 1024); 0 for no limit."
        />
        <TextField field="max_file_size" label="Largest file" value={form.max_file_size} errors={errors} hint={`Empty: the default, ${formatSize(props.defaultMaxFileSize)}.`} />
        <TextField field="notes" label="Notes" maxlength={2000} value={form.notes} errors={errors} hint="Why, for the other administrators (kept in the audit log too)." />
        <div class="actions">
          <button type="submit">Set quota</button>
        </div>
      </form>
    </AdminPage>
  );
}
