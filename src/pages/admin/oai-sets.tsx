// Administration → OAI-PMH sets: the administrators' sets, searched and paged through the OAI sets
// service; a new set, a set's form (its spec fixed once made), deleting one after a confirmation
// step. The service's validation messages show beside their fields.
import type { FieldError } from "../../core/errors";
import { CsrfField, FieldErrors, TextField } from "../forms";
import type { PageContext } from "../layout";
import { DataTable } from "../table";
import { AdminPage, AdminPager, ConfirmStep, queryOf, TableBox } from "./frame";

export const OAI_SETS = "/administration/oai-sets";

/** A set as the OAI sets service presents it. */
export interface OaiSet {
  id: number;
  name: string;
  spec: string;
  search_pattern: string;
  description: string | null;
  updated: string;
  links: { "oai-listrecords": string };
}

export interface SetValues {
  name: string;
  spec: string;
  search_pattern: string;
  description: string;
}

export const EMPTY_SET: SetValues = { name: "", spec: "", search_pattern: "", description: "" };

export function OaiSetsPage(props: { ctx: PageContext; mailOff: boolean; q: string; sets: OaiSet[]; total: number; page: number; size: number; notice?: string }) {
  const { ctx, q, sets } = props;
  return (
    <AdminPage ctx={ctx} title="OAI-PMH sets" screen={OAI_SETS} mailOff={props.mailOff} notice={props.notice}>
      <p>
        Harvesters select records by these sets (each a search query); the public communities' sets are listed beside them on their own.{" "}
        <a class="button" href={`${OAI_SETS}/new`}>
          New set
        </a>
      </p>
      <form class="card filters" method="get" action={OAI_SETS} role="search" aria-label="OAI-PMH sets">
        <label for="sets-q">Name, spec or description</label>
        <input id="sets-q" name="q" type="search" value={q} maxlength={200} />
        <div class="actions">
          <button type="submit">Search sets</button>
        </div>
      </form>
      {sets.length === 0 ? (
        <p class="muted">No sets{q ? " match" : " yet"}.</p>
      ) : (
        <TableBox label="Table of OAI-PMH sets">
          <DataTable caption="OAI-PMH sets by name" columns={["Name", "Spec", "Query", "Updated"]}>
            {sets.map((s) => (
              <tr data-set-id={String(s.id)}>
                <th scope="row">
                  <a href={`${OAI_SETS}/${s.id}`}>{s.name}</a>
                </th>
                <td>{s.spec}</td>
                <td>
                  <code>{s.search_pattern}</code>
                </td>
                <td>{s.updated.slice(0, 10)}</td>
              </tr>
            ))}
          </DataTable>
        </TableBox>
      )}
      <AdminPager page={props.page} size={props.size} total={props.total} href={(page) => OAI_SETS + queryOf({ q, page: page === 1 ? null : page })} />
    </AdminPage>
  );
}

/** The new set's form, or a set's (its spec shown, not editable), with the service's messages. */
export function SetFormPage(props: { ctx: PageContext; mailOff: boolean; set: OaiSet | null; values: SetValues; errors?: FieldError[]; notice?: string }) {
  const { ctx, set, values, errors } = props;
  const other = errors?.filter((e) => !["name", "spec", "search_pattern", "description"].includes(e.field)) ?? [];
  const descriptionInvalid = errors?.some((e) => e.field === "description") ?? false;
  return (
    <AdminPage ctx={ctx} title={set ? `OAI-PMH set ${set.name}` : "New OAI-PMH set"} screen={OAI_SETS} mailOff={props.mailOff} notice={props.notice}>
      <p>
        <a href={OAI_SETS}>Back to the sets</a>
        {set ? (
          <>
            {" · "}
            <a href={set.links["oai-listrecords"]}>Its records over OAI-PMH</a>
          </>
        ) : null}
      </p>
      {other.length ? (
        <p class="field-error" role="alert">
          {other.flatMap((e) => e.messages).join(" ")}
        </p>
      ) : null}
      <form class="card" method="post" action={set ? `${OAI_SETS}/${set.id}` : `${OAI_SETS}/new`}>
        <CsrfField ctx={ctx} />
        <TextField field="name" label="Name" value={values.name} errors={errors} required maxlength={255} />
        {set ? (
          <p>
            Spec: <code>{set.spec}</code> (it cannot change: delete the set and create another)
          </p>
        ) : (
          <TextField
            field="spec"
            label="Spec"
            value={values.spec}
            errors={errors}
            required
            maxlength={255}
            hint="Letters, digits and - _ . ! ~ * ' ( ), with ':' between levels."
          />
        )}
        <TextField
          field="search_pattern"
          label="Search query"
          value={values.search_pattern}
          errors={errors}
          required
          maxlength={10000}
          hint={
            <>
              The records search's query string, e.g. <code>metadata.subjects.subject:physics</code>
            </>
          }
        />
        <label for="field-description">Description</label>
        <textarea
          id="field-description"
          name="description"
          maxlength={10000}
          aria-invalid={descriptionInvalid ? "true" : undefined}
          aria-describedby={descriptionInvalid ? "field-description-error" : undefined}
        >
          {values.description}
        </textarea>
        <FieldErrors errors={errors} field="description" id="field-description-error" />
        <div class="actions">
          <button type="submit">{set ? "Save the set" : "Create the set"}</button>
          {set ? (
            <a class="button danger" href={`${OAI_SETS}/${set.id}/delete`}>
              Delete the set
            </a>
          ) : null}
        </div>
      </form>
    </AdminPage>
  );
}

export function DeleteSetPage({ ctx, mailOff, set }: { ctx: PageContext; mailOff: boolean; set: OaiSet }) {
  return (
    <AdminPage ctx={ctx} title={`Delete: ${set.name}`} screen={OAI_SETS} mailOff={mailOff}>
      <ConfirmStep
        ctx={ctx}
        action={`${OAI_SETS}/${set.id}/delete`}
        question={`Delete the OAI-PMH set ${set.name} (${set.spec})?`}
        detail={<p>Harvesters can no longer select records by it; the records themselves stay.</p>}
        button="Delete the set"
        back={`${OAI_SETS}/${set.id}`}
      />
    </AdminPage>
  );
}
