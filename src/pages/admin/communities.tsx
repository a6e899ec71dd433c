// Administration → Communities: every community (restricted ones too), searched through the
// communities search as an administrator, paged; one community with its featured periods; feature it
// for a period (a start and an optional end), remove a period and delete the community, each
// destructive step confirmed. The services check the role and the dates.
import type { FieldError } from "../../core/errors";
import { CsrfField, FieldErrors } from "../forms";
import type { Child } from "../jsx-runtime";
import type { PageContext } from "../layout";
import { DataTable } from "../table";
import { AdminPage, Facts, AdminPager, ConfirmStep, queryOf, TableBox } from "./frame";

type Json = Record<string, any>;

export const COMMUNITIES = "/administration/communities";

const titleOf = (c: Json) => String(c.metadata?.title ?? "") || String(c.slug);

/** A featured period from the service's `{id, start_date, end_date?}`. */
export interface FeaturedPeriod {
  id: number;
  start_date: string;
  end_date?: string;
}

/** `2026-11-27T10:00:00.000000Z` -> `2026-11-27 10:00 UTC`. */
const shortTime = (iso: string | undefined) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "—");

export function CommunitiesPage(props: { ctx: PageContext; mailOff: boolean; q: string; result: Json; page: number; size: number; notice?: string }) {
  const { ctx, q, result } = props;
  const hits = (result.hits?.hits ?? []) as Json[];
  return (
    <AdminPage ctx={ctx} title="Communities" screen={COMMUNITIES} mailOff={props.mailOff} notice={props.notice}>
      <form class="card filters" method="get" action={COMMUNITIES} role="search" aria-label="Communities">
        <label for="communities-q">Name, identifier or words of the description</label>
        <input id="communities-q" name="q" type="search" value={q} maxlength={1000} />
        <div class="actions">
          <button type="submit">Search communities</button>
        </div>
      </form>
      {hits.length === 0 ? (
        <p class="muted">No communities{q ? " match" : " yet"}.</p>
      ) : (
        <TableBox label="Table of communities">
          <DataTable caption="Communities" columns={["Title", "Identifier", "Visibility", "Created"]}>
            {hits.map((c) => (
              <tr data-community-id={String(c.id)}>
                <th scope="row">
                  <a href={`${COMMUNITIES}/${c.id}`}>{titleOf(c)}</a>
                </th>
                <td>{String(c.slug)}</td>
                <td>{String(c.access?.visibility ?? "")}</td>
                <td>{String(c.created ?? "").slice(0, 10)}</td>
              </tr>
            ))}
          </DataTable>
        </TableBox>
      )}
      <AdminPager page={props.page} size={props.size} total={Number(result.hits?.total ?? 0)} href={(page) => COMMUNITIES + queryOf({ q, page: page === 1 ? null : page })} />
    </AdminPage>
  );
}

export interface FeatureForm {
  start: string;
  end: string;
  errors?: FieldError[];
}

function DateField({ field, name, label, value, errors, required }: { field: string; name: string; label: string; value: string; errors?: FieldError[]; required?: boolean }) {
  const id = `field-${field}`;
  const invalid = errors?.some((e) => e.field === field) ?? false;
  return (
    <>
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="datetime-local"
        value={value}
        required={required}
        aria-invalid={invalid ? "true" : undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
      />
      <FieldErrors errors={errors} field={field} id={`${id}-error`} />
    </>
  );
}

function FeatureFormCard({ ctx, community, form }: { ctx: PageContext; community: Json; form: FeatureForm }) {
  const other = form.errors?.filter((e) => e.field !== "start_date" && e.field !== "end_date") ?? [];
  return (
    <section class="card" aria-labelledby="feature-heading">
      <h2 id="feature-heading">Feature it for a period</h2>
      <p class="muted">Only public communities are featured. Times are UTC; without an end it stays featured until a later period replaces it.</p>
      {other.length ? (
        <p class="field-error" role="alert">
          {other.flatMap((e) => e.messages).join(" ")}
        </p>
      ) : null}
      <form method="post" action={`${COMMUNITIES}/${community.id}/featured`}>
        <CsrfField ctx={ctx} />
        <DateField field="start_date" name="start" label="From (UTC)" value={form.start} errors={form.errors} required />
        <DateField field="end_date" name="end" label="Until (UTC, optional)" value={form.end} errors={form.errors} />
        <div class="actions">
          <button type="submit">Feature the community</button>
        </div>
      </form>
    </section>
  );
}

export function CommunityPage(props: { ctx: PageContext; mailOff: boolean; community: Json; periods: FeaturedPeriod[]; form: FeatureForm; notice?: string }) {
  const { ctx, community, periods } = props;
  // The id is for API calls: shown as code to copy, not as the community's name.
  const facts: [string, Child][] = [
    ["Identifier", String(community.slug)],
    ["Id", <code>{String(community.id)}</code>],
    ["Visibility", String(community.access?.visibility ?? "")],
    ["Type", String(community.metadata?.type?.id ?? "—")],
    ["Created", String(community.created ?? "").slice(0, 10)],
  ];
  return (
    <AdminPage ctx={ctx} title={`Community ${titleOf(community)}`} screen={COMMUNITIES} mailOff={props.mailOff} notice={props.notice}>
      <p>
        <a href={COMMUNITIES}>Back to the communities</a>
        {" · "}
        <a href={`/communities/${community.slug}`}>The community's page</a>
      </p>
      <Facts facts={facts} />
      <section aria-labelledby="featured-heading">
        <h2 id="featured-heading">Featured periods</h2>
        {periods.length === 0 ? (
          <p class="muted">Never featured.</p>
        ) : (
          <TableBox label="Table of featured periods">
            <DataTable caption="Featured periods, latest start first" columns={["From", "Until", "Action"]}>
              {periods.map((p) => (
                <tr data-featured-id={String(p.id)}>
                  <th scope="row">{shortTime(p.start_date)}</th>
                  <td>{p.end_date ? shortTime(p.end_date) : "no end"}</td>
                  <td>
                    <a href={`${COMMUNITIES}/${community.id}/featured/${p.id}/remove`} aria-label={`Remove the period from ${shortTime(p.start_date)}`}>
                      Remove
                    </a>
                  </td>
                </tr>
              ))}
            </DataTable>
          </TableBox>
        )}
      </section>
      <FeatureFormCard ctx={ctx} community={community} form={props.form} />
      <section aria-labelledby="community-actions">
        <h2 id="community-actions">Actions</h2>
        <div class="actions">
          <a class="button" href={`${COMMUNITIES}/${community.id}/delete`}>
            Delete the community
          </a>
        </div>
      </section>
    </AdminPage>
  );
}

export function RemovePeriodPage({ ctx, mailOff, community, period }: { ctx: PageContext; mailOff: boolean; community: Json; period: FeaturedPeriod }) {
  return (
    <AdminPage ctx={ctx} title={`Remove a featured period: ${titleOf(community)}`} screen={COMMUNITIES} mailOff={mailOff}>
      <ConfirmStep
        ctx={ctx}
        action={`${COMMUNITIES}/${community.id}/featured/${period.id}/remove`}
        question={`Remove the featured period from ${shortTime(period.start_date)}?`}
        detail={<p>If it is the period in force, the community leaves the featured communities now.</p>}
        button="Remove the period"
        back={`${COMMUNITIES}/${community.id}`}
      />
    </AdminPage>
  );
}

export function DeleteCommunityPage({ ctx, mailOff, community }: { ctx: PageContext; mailOff: boolean; community: Json }) {
  return (
    <AdminPage ctx={ctx} title={`Delete: ${titleOf(community)}`} screen={COMMUNITIES} mailOff={mailOff}>
      <ConfirmStep
        ctx={ctx}
        action={`${COMMUNITIES}/${community.id}/delete`}
        question={`Delete the community ${titleOf(community)} (${String(community.slug)})?`}
        detail={<p>Its members, featured periods, logo and open requests go with it; its records stay. It cannot be undone.</p>}
        button="Delete the community"
        back={`${COMMUNITIES}/${community.id}`}
      />
    </AdminPage>
  );
}
