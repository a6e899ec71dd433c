// Administration → Records and drafts: every record and draft (published, restricted, drafts,
// deleted), searched through the records service's administrators' listing with its facets, paged;
// one record with its owner, status and tombstone; tombstone (a removal reason and a note) and
// restore after a confirmation step, and a new owner. The services check the role and the input.
import type { FieldError } from "../../core/errors";
import { CsrfField, FieldErrors, TextField } from "../forms";
import type { PageContext } from "../layout";
import { FORM_ID, Facets } from "../search/parts";
import type { SearchState } from "../search/state";
import { DataTable } from "../table";
import { AdminPage, AnyOf, Facts, AdminPager, ConfirmStep, queryOf, TableBox } from "./frame";

type Json = Record<string, any>;

export const RECORDS = "/administration/records";

/** The `status` filter (records service searchEverything): its label. */
export const RECORD_STATUSES: Record<string, string> = { published: "Published", draft: "Drafts", deleted: "Deleted" };

/** What the screen shows of a hit or a read record. */
export interface RecordSummary {
  id: string;
  title: string;
  ownerId: number | null;
  /** The owner's e-mail (null: no owner, or the account is gone). */
  owner: string | null;
  status: "published" | "draft" | "deleted";
  access: string;
  tombstone: Json | null;
}

/** The summary of a record or draft JSON (a listing's `access.owned_by` is a list, a read's `parent.access.owned_by` an object). */
export function summaryOf(json: Json, emails: ReadonlyMap<number, string>): RecordSummary {
  const listed = json.access?.owned_by;
  const raw = Array.isArray(listed) ? listed[0]?.user : json.parent?.access?.owned_by?.user;
  const ownerId = raw === undefined || raw === null ? null : Number(raw);
  const status = json.is_draft ? "draft" : json.deletion_status?.is_deleted ? "deleted" : "published";
  return {
    id: String(json.id),
    title: String(json.metadata?.title ?? "") || "(no title)",
    ownerId,
    owner: ownerId === null ? null : (emails.get(ownerId) ?? null),
    status,
    access: String(json.access?.record ?? "public"),
    tombstone: (json.tombstone as Json | undefined) ?? null,
  };
}

const ownerText = (r: RecordSummary) => r.owner ?? (r.ownerId === null ? "—" : `user ${r.ownerId}`);

export interface RecordFilters {
  q: string;
  status: string;
}

function SearchForm({ filters }: { filters: RecordFilters }) {
  return (
    <form id={FORM_ID} class="card filters" method="get" action={RECORDS} role="search" aria-label="Records">
      <label for="records-q">Title, creator, id or any query</label>
      <input id="records-q" name="q" type="search" value={filters.q} maxlength={1000} />
      <label for="records-status">Status</label>
      <AnyOf id="records-status" name="status" value={filters.status} choices={RECORD_STATUSES} />
      <div class="actions">
        <button type="submit">Search records</button>
      </div>
    </form>
  );
}

export function RecordsPage(props: {
  ctx: PageContext;
  mailOff: boolean;
  state: SearchState;
  filters: RecordFilters;
  rows: RecordSummary[];
  total: number;
  aggregations: Json;
  page: number;
  size: number;
}) {
  const { ctx, filters, rows, state } = props;
  // The facet checkboxes' values stay in the pager's links.
  const kept = [...state.params].filter(([name]) => name !== "page");
  const href = (page: number) => {
    const params = new URLSearchParams(kept);
    if (page > 1) params.set("page", String(page));
    const text = params.toString();
    return text ? `${RECORDS}?${text}` : RECORDS;
  };
  return (
    <AdminPage ctx={ctx} title="Records and drafts" screen={RECORDS} mailOff={props.mailOff}>
      <SearchForm filters={filters} />
      <div class="columns search-results">
        <Facets state={state} aggregations={props.aggregations} />
        <div>
          {rows.length === 0 ? (
            <p class="muted">No records{filters.q || filters.status || kept.length ? " match" : " yet"}.</p>
          ) : (
            <TableBox label="Table of records">
              <DataTable caption="Records and drafts, recently updated first" columns={["Title", "Id", "Owner", "Status", "Access"]}>
                {rows.map((r) => (
                  <tr data-record-id={r.id} data-status={r.status}>
                    <th scope="row">
                      <a href={`${RECORDS}/${r.id}${r.status === "draft" ? "?draft=1" : ""}`}>{r.title}</a>
                    </th>
                    <td>{r.id}</td>
                    <td>{ownerText(r)}</td>
                    <td>
                      <span class={`badge ${r.status}`}>{r.status}</span>
                    </td>
                    <td>{r.access}</td>
                  </tr>
                ))}
              </DataTable>
            </TableBox>
          )}
          <AdminPager page={props.page} size={props.size} total={props.total} href={href} />
        </div>
      </div>
    </AdminPage>
  );
}

const back = (r: RecordSummary) => `${RECORDS}/${r.id}${r.status === "draft" ? "?draft=1" : ""}`;

export function RecordPage({ ctx, mailOff, record, notice }: { ctx: PageContext; mailOff: boolean; record: RecordSummary; notice?: string }) {
  const facts: [string, string][] = [
    ["Id", record.id],
    ["Owner", ownerText(record)],
    ["Status", record.status],
    ["Access", record.access],
  ];
  const tombstone = record.tombstone;
  if (tombstone) {
    facts.push(["Removal reason", String(tombstone.removal_reason?.title?.en ?? tombstone.removal_reason?.title ?? tombstone.removal_reason?.id ?? "—")]);
    facts.push(["Note", String(tombstone.note || "—")]);
    facts.push(["Removed", String(tombstone.removal_date ?? "—")]);
  }
  return (
    <AdminPage ctx={ctx} title={`Record ${record.title}`} screen={RECORDS} mailOff={mailOff} notice={notice}>
      <p>
        <a href={RECORDS}>Back to the records</a>
        {record.status === "draft" ? null : (
          <>
            {" · "}
            <a href={`/records/${record.id}`}>The record's page</a>
          </>
        )}
      </p>
      <Facts facts={facts} />
      <section aria-labelledby="record-actions">
        <h2 id="record-actions">Actions</h2>
        <div class="actions">
          {record.status === "published" ? (
            <a class="button" href={`${RECORDS}/${record.id}/tombstone`}>
              Tombstone
            </a>
          ) : null}
          {record.status === "deleted" ? (
            <a class="button" href={`${RECORDS}/${record.id}/restore`}>
              Restore
            </a>
          ) : null}
          <a class="button" href={`${RECORDS}/${record.id}/owner${record.status === "draft" ? "?draft=1" : ""}`}>
            Change the owner
          </a>
        </div>
      </section>
    </AdminPage>
  );
}

export interface TombstoneForm {
  reason: string;
  note: string;
  errors?: FieldError[];
}

/** The confirmation step of a tombstone: why (the removal reasons vocabulary) and a note. */
export function TombstonePage(props: { ctx: PageContext; mailOff: boolean; record: RecordSummary; reasons: { id: string; title: string }[]; form: TombstoneForm }) {
  const { ctx, record, form } = props;
  const invalid = form.errors?.some((e) => e.field === "removal_reason.id") ?? false;
  return (
    <AdminPage ctx={ctx} title={`Tombstone: ${record.title}`} screen={RECORDS} mailOff={props.mailOff}>
      <section class="card" aria-labelledby="confirm-heading">
        <h2 id="confirm-heading">Tombstone the record {record.id}?</h2>
        <p>It leaves searches and harvests; its page answers with the tombstone, its files are no longer served and its DOI is hidden. Restore undoes it.</p>
        <form method="post" action={`${RECORDS}/${record.id}/tombstone`}>
          <CsrfField ctx={ctx} />
          <label for="field-removal_reason-id">Removal reason</label>
          <select
            id="field-removal_reason-id"
            name="reason"
            required
            aria-invalid={invalid ? "true" : undefined}
            aria-describedby={invalid ? "field-removal_reason-id-error" : undefined}
          >
            <option value="" selected={form.reason === ""}>
              Choose a reason
            </option>
            {props.reasons.map((r) => (
              <option value={r.id} selected={form.reason === r.id}>
                {r.title}
              </option>
            ))}
          </select>
          <FieldErrors errors={form.errors} field="removal_reason.id" id="field-removal_reason-id-error" />
          <label for="field-note">Note (shown on the tombstone)</label>
          <textarea id="field-note" name="note" maxlength={10000}>
            {form.note}
          </textarea>
          <FieldErrors errors={form.errors} field="note" id="field-note-error" />
          <div class="actions">
            <button type="submit" class="danger">
              Tombstone the record
            </button>
            <a href={back(record)}>Cancel, go back</a>
          </div>
        </form>
      </section>
    </AdminPage>
  );
}

export function RestorePage({ ctx, mailOff, record }: { ctx: PageContext; mailOff: boolean; record: RecordSummary }) {
  return (
    <AdminPage ctx={ctx} title={`Restore: ${record.title}`} screen={RECORDS} mailOff={mailOff}>
      <ConfirmStep
        ctx={ctx}
        action={`${RECORDS}/${record.id}/restore`}
        question={`Restore the record ${record.id}?`}
        detail={<p>Its tombstone goes; it is found, harvested and read as before it was removed.</p>}
        button="Restore the record"
        back={back(record)}
      />
    </AdminPage>
  );
}

/** The new owner's step: an e-mail address or a user id; the service refuses an unknown or inactive account. */
export function OwnerPage(props: { ctx: PageContext; mailOff: boolean; record: RecordSummary; owner: string; errors?: FieldError[] }) {
  const { ctx, record } = props;
  return (
    <AdminPage ctx={ctx} title={`New owner: ${record.title}`} screen={RECORDS} mailOff={props.mailOff}>
      <section class="card" aria-labelledby="owner-heading">
        <h2 id="owner-heading">Give the record {record.id} to another user?</h2>
        <p>Every version and draft of it changes owner; the owner now is {ownerText(record)}.</p>
        <form method="post" action={`${RECORDS}/${record.id}/owner${queryOf({ draft: record.status === "draft" ? 1 : null })}`}>
          <CsrfField ctx={ctx} />
          <TextField field="owned_by.user" name="owner" label="New owner (e-mail or user id)" value={props.owner} errors={props.errors} required maxlength={254} />
          <div class="actions">
            <button type="submit">Change the owner</button>
            <a href={back(record)}>Cancel, go back</a>
          </div>
        </form>
      </section>
    </AdminPage>
  );
}
