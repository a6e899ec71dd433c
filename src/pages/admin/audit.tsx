// Administration → Audit log: every administrative action (who, what, target, when, from where and
// which way in), newest first, filtered by action and target, paged.
import type { AuditEntry } from "../../audit/model";
import type { PageContext } from "../layout";
import { DataTable } from "../table";
import { AdminPage, AdminPager, queryOf, TableBox, when } from "./frame";

export const AUDIT = "/administration/audit";

export interface AuditFilters {
  action: string;
  target_type: string;
  target_id: string;
}

function FilterForm({ filters }: { filters: AuditFilters }) {
  const field = (name: keyof AuditFilters, label: string) => (
    <>
      <label for={`audit-${name}`}>{label}</label>
      <input id={`audit-${name}`} name={name} type="text" value={filters[name]} maxlength={200} />
    </>
  );
  return (
    <form class="card filters" method="get" action={AUDIT} role="search" aria-label="Audit log">
      {field("action", "Action (such as mail.resend)")}
      {field("target_type", "Target type (such as mail, job, user)")}
      {field("target_id", "Target id")}
      <div class="actions">
        <button type="submit">Filter the log</button>
      </div>
    </form>
  );
}

const detailsText = (details: Record<string, unknown>) => {
  const entries = Object.entries(details);
  return entries.length ? entries.map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`).join("; ") : "—";
};

export function AuditPage(props: { ctx: PageContext; mailOff: boolean; filters: AuditFilters; result: { entries: AuditEntry[]; total: number; page: number; size: number } }) {
  const { ctx, filters, result } = props;
  const filtered = Boolean(filters.action || filters.target_type || filters.target_id);
  return (
    <AdminPage ctx={ctx} title="Audit log" screen={AUDIT} mailOff={props.mailOff}>
      <FilterForm filters={filters} />
      {result.entries.length === 0 ? (
        <p class="muted">No entries{filtered ? " match" : " yet"}.</p>
      ) : (
        <TableBox label="Table of audit log entries">
          <DataTable caption="Audit log, newest first" columns={["When", "Who", "Action", "Target", "From", "Details"]}>
            {result.entries.map((entry) => (
              <tr data-audit-id={String(entry.id)}>
                <th scope="row">{when(entry.at)}</th>
                <td>{entry.actorLabel}</td>
                <td>
                  <code>{entry.action}</code>
                </td>
                <td>{`${entry.targetType} ${entry.targetId}`}</td>
                <td>{`${entry.via}${entry.address ? ` (${entry.address})` : ""}`}</td>
                <td>{detailsText(entry.details)}</td>
              </tr>
            ))}
          </DataTable>
        </TableBox>
      )}
      <AdminPager page={result.page} size={result.size} total={result.total} href={(page) => AUDIT + queryOf({ ...filters, page: page === 1 ? null : page })} />
    </AdminPage>
  );
}
