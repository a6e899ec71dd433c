// Administration → Users, a user's page continued: their records and drafts, their communities with
// their role, their latest sign-ins; and the delete step (what happens to N published records and M
// drafts, the choice between keeping them under the placeholder owner and removing them as spam).
import type { Child } from "../jsx-runtime";
import { CsrfField } from "../forms";
import type { PageContext } from "../layout";
import { DataTable } from "../table";
import { AdminPage, TableBox, when } from "./frame";
import { USERS } from "./users";

/** Rows each list of a user's page shows; the rest is counted. */
export const USER_LIST_SIZE = 10;

export interface OwnedItem {
  id: string;
  title: string;
  status: "published" | "deleted" | "draft";
  updated: number;
}

export interface UserCommunity {
  slug: string;
  title: string;
  role: string;
  onlyOwner: boolean;
}

export interface SignInRow {
  id: number;
  at: number;
  method: string;
  address: string | null;
  userAgent: string | null;
}

/** "Showing 10 of 42." under a list cut at USER_LIST_SIZE. */
const More = ({ shown, total, more }: { shown: number; total: number; more?: Child }) =>
  total > shown ? (
    <p class="muted">
      Showing {shown} of {total}.{more ? " " : null}
      {more}
    </p>
  ) : null;

const itemLink = (item: OwnedItem) => (item.status === "draft" ? `/uploads/${item.id}` : `/records/${item.id}`);

function OwnedTable({ caption, label, items }: { caption: string; label: string; items: OwnedItem[] }) {
  return (
    <TableBox label={label}>
      <DataTable caption={caption} columns={["Title", "Id", "Status", "Changed"]}>
        {items.map((item) => (
          <tr data-record-id={item.id}>
            <th scope="row">
              <a href={itemLink(item)}>{item.title}</a>
            </th>
            <td>
              <code>{item.id}</code>
            </td>
            <td>{item.status}</td>
            <td>{when(item.updated)}</td>
          </tr>
        ))}
      </DataTable>
    </TableBox>
  );
}

export function UserRecords({ owned }: { owned: { records: OwnedItem[]; drafts: OwnedItem[]; totals: { records: number; drafts: number } } }) {
  return (
    <section aria-labelledby="user-records">
      <h2 id="user-records">Records and drafts</h2>
      {owned.records.length === 0 ? (
        <p class="muted">No published records.</p>
      ) : (
        <>
          <OwnedTable caption="Their published records, last changed first" label="Table of published records" items={owned.records} />
          <More shown={owned.records.length} total={owned.totals.records} more={<a href="/administration/records">Search every record</a>} />
        </>
      )}
      {owned.drafts.length === 0 ? (
        <p class="muted">No drafts.</p>
      ) : (
        <>
          <OwnedTable caption="Their drafts, last changed first" label="Table of drafts" items={owned.drafts} />
          <More shown={owned.drafts.length} total={owned.totals.drafts} />
        </>
      )}
    </section>
  );
}

export function UserCommunities({ communities, total }: { communities: UserCommunity[]; total: number }) {
  return (
    <section aria-labelledby="user-communities">
      <h2 id="user-communities">Communities</h2>
      {communities.length === 0 ? (
        <p class="muted">Not a member of any community.</p>
      ) : (
        <>
          <TableBox label="Table of communities">
            <DataTable caption="Their communities and role" columns={["Community", "Role"]}>
              {communities.map((c) => (
                <tr data-community={c.slug}>
                  <th scope="row">
                    <a href={`/communities/${c.slug}`}>{c.title}</a>
                  </th>
                  <td>{c.onlyOwner ? `${c.role} (the only one)` : c.role}</td>
                </tr>
              ))}
            </DataTable>
          </TableBox>
          <More shown={communities.length} total={total} />
        </>
      )}
    </section>
  );
}

export function UserSignIns({ signIns }: { signIns: SignInRow[] }) {
  return (
    <section aria-labelledby="user-sign-ins">
      <h2 id="user-sign-ins">Latest sign-ins</h2>
      {signIns.length === 0 ? (
        <p class="muted">No sign-ins recorded.</p>
      ) : (
        <TableBox label="Table of sign-ins">
          <DataTable caption={`The latest ${signIns.length} sign-ins, newest first`} columns={["When", "How", "From", "Browser"]}>
            {signIns.map((s) => (
              <tr data-sign-in-id={String(s.id)}>
                <th scope="row">{when(s.at)}</th>
                <td>{s.method}</td>
                <td>{s.address ?? "—"}</td>
                <td>{s.userAgent ?? "—"}</td>
              </tr>
            ))}
          </DataTable>
        </TableBox>
      )}
    </section>
  );
}

/** The user's page's extra actions: a password-reset link (posts at once) and the delete step. */
export function MoreUserActions({ ctx, userId }: { ctx: PageContext; userId: string }) {
  return (
    <div class="actions">
      <form method="post" action={`${USERS}/${userId}/password-reset`}>
        <CsrfField ctx={ctx} />
        <button type="submit">Send a password-reset link</button>
      </form>
      <a class="button danger" href={`${USERS}/${userId}/delete`}>
        Delete
      </a>
    </div>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function DeleteUserPage(props: {
  ctx: PageContext;
  mailOff: boolean;
  user: { id: number; email: string };
  records: number;
  drafts: number;
  soleOwnerOf: string[];
  error?: string;
}) {
  const { ctx, user } = props;
  const back = `${USERS}/${user.id}`;
  return (
    <AdminPage ctx={ctx} title={`Delete: ${user.email}`} screen={USERS} mailOff={props.mailOff}>
      <section class="card" aria-labelledby="confirm-heading">
        <h2 id="confirm-heading">Delete {user.email}?</h2>
        <p>
          The account goes for good: its {plural(props.drafts, "draft", "drafts")} (with their files), its tokens, sessions, linked identities and community memberships; the
          requests it opened are cancelled. It cannot be undone.
        </p>
        {props.soleOwnerOf.length && !props.error ? (
          <p class="notice error" role="alert">
            They are the only owner of {props.soleOwnerOf.join(", ")}: give each another owner (or delete it) first.
          </p>
        ) : null}
        {props.error ? (
          <p class="notice error" role="alert">
            {props.error}
          </p>
        ) : null}
        <form method="post" action={`${back}/delete`}>
          <CsrfField ctx={ctx} />
          <fieldset class="choices">
            <legend>Their {plural(props.records, "published record", "published records")}</legend>
            <label class="choice">
              <input type="radio" name="records" value="keep" required /> Keep them, owned by a placeholder shown as “Deleted user”
            </label>
            <label class="choice">
              <input type="radio" name="records" value="remove" required /> Remove them: each gets a tombstone with the reason “Spam”
            </label>
          </fieldset>
          <div class="actions">
            <button type="submit" class="danger">
              Delete the account
            </button>
            <a href={back}>Cancel, go back</a>
          </div>
        </form>
      </section>
    </AdminPage>
  );
}
