// Administration → Users: every account, searched by e-mail, username and name, filtered by state
// (active, blocked, deactivated, unconfirmed, administrators), newest first, paged; one account with
// its facts, linked identities and tokens; and the actions on it (block, restore, deactivate,
// activate, approve, make / stop being administrator; revoke a token), the destructive ones after
// a confirmation step. The service checks the role, refuses what may not be done and audits.
import type { LinkedIdentity } from "../../accounts/links";
import { badRequest, notFound } from "../../core/errors";
import type { UserRow } from "../../users/service";
import type { ManagedUserJson } from "../../users/present";
import type { UserAction } from "../../users/admin";
import { CsrfField } from "../forms";
import type { Child } from "../jsx-runtime";
import type { PageContext } from "../layout";
import { DataTable } from "../table";
import { AdminPage, Facts, AdminPager, ConfirmStep, queryOf, TableBox, when } from "./frame";
import type { QuotaUsage } from "../../quotas/model";
import { UserStorage } from "./quota";
import { AWAITING, UserModeration, type PendingModeration } from "./moderation";

export const USERS = "/administration/users";

/** The state filter of the list: its label, and the service's filters it stands for. */
export const USER_STATES: Record<string, { label: string; filters: Record<string, string> }> = {
  active: { label: "Active", filters: { is_active: "true" } },
  blocked: { label: "Blocked", filters: { is_blocked: "true" } },
  deactivated: { label: "Deactivated", filters: { is_active: "false", is_blocked: "false" } },
  unconfirmed: { label: "Unconfirmed", filters: { is_confirmed: "false" } },
  administrators: { label: "Administrators", filters: { is_admin: "true" } },
};

/** The service's filters of a state ("" for every account); a 400 naming the parameter for an unknown one. */
export function stateFilters(state: string): Record<string, string> {
  if (state === "") return {};
  const known = USER_STATES[state];
  if (!known) throw badRequest(`state: Must be one of: ${Object.keys(USER_STATES).join(", ")}.`);
  return known.filters;
}

/** Each action of a user's page: its button, whether it takes a confirmation step, and the notice after it. */
export const USER_ACTION_PAGES: Record<UserAction, { button: string; confirm?: (who: string) => string; detail?: string; done: string }> = {
  block: {
    button: "Block",
    confirm: (who) => `Block ${who}?`,
    detail:
      "They cannot sign in any more, their sessions end, their tokens are refused and the requests they opened are cancelled; with moderation of new accounts on, what they published is removed with tombstones (reason: spam). Restore undoes the block, not the removals.",
    done: "The account was blocked.",
  },
  restore: { button: "Restore", done: "The account was restored: it may sign in again." },
  deactivate: {
    button: "Deactivate",
    confirm: (who) => `Deactivate ${who}?`,
    detail: "They cannot sign in or use their tokens, and their sessions end; nothing else changes. Activate undoes it.",
    done: "The account was deactivated.",
  },
  activate: { button: "Activate", done: "The account was activated." },
  approve: { button: "Approve", done: "The account was approved: its held uploads are published and its publications skip moderation." },
  promote: { button: "Make administrator", done: "The account is an administrator now." },
  demote: {
    button: "Stop being administrator",
    confirm: (who) => `Take the administrator role from ${who}?`,
    detail: "They keep their account, records and communities, but no longer reach the administration.",
    done: "The account is no longer an administrator.",
  },
};

/** An action of the path (`block`…), or the 404 of a page that does not exist. */
export function actionOf(raw: string): UserAction {
  if (!Object.hasOwn(USER_ACTION_PAGES, raw)) throw notFound(`No action '${raw}'.`);
  return raw as UserAction;
}

/** The account's state as badges: administrator, blocked, deactivated, unconfirmed, verified. */
function StateBadges({ user }: { user: ManagedUserJson }) {
  const badges = [
    user.is_admin ? "administrator" : null,
    user.blocked_at !== null ? "blocked" : null,
    user.blocked_at === null && !user.active ? "deactivated" : null,
    user.confirmed ? null : "unconfirmed",
    user.verified_at !== null ? "verified" : null,
  ].filter((b) => b !== null);
  return badges.length === 0 ? (
    <span class="muted">—</span>
  ) : (
    <span class="badges">
      {badges.map((b, i) => (
        <>
          {i > 0 ? " " : null}
          <span class={`badge ${b}`}>{b}</span>
        </>
      ))}
    </span>
  );
}

export interface UserFilters {
  q: string;
  state: string;
  /** Accounts made on or after this day (YYYY-MM-DD; the service's `created_since`). */
  since: string;
}

function FilterForm({ filters }: { filters: UserFilters }) {
  return (
    <form class="card filters" method="get" action={USERS} role="search" aria-label="Users">
      <label for="users-q">E-mail, username or name</label>
      <input id="users-q" name="q" type="search" value={filters.q} maxlength={200} />
      <label for="users-state">State</label>
      <select id="users-state" name="state">
        <option value="" selected={filters.state === ""}>
          Any
        </option>
        {Object.entries(USER_STATES).map(([value, { label }]) => (
          <option value={value} selected={filters.state === value}>
            {label}
          </option>
        ))}
        <option value={AWAITING} selected={filters.state === AWAITING}>
          Awaiting moderation
        </option>
      </select>
      <label for="users-since">Created since</label>
      <input id="users-since" name="since" type="date" value={filters.since} />
      <div class="actions">
        <button type="submit">Search users</button>
      </div>
    </form>
  );
}

const created = (iso: string | undefined) => (iso ? when(Date.parse(iso)) : "—");

export function UsersPage(props: {
  ctx: PageContext;
  mailOff: boolean;
  filters: UserFilters;
  result: { hits: { hits: ManagedUserJson[]; total: number } };
  page: number;
  size: number;
  notice?: string;
}) {
  const { ctx, filters, result } = props;
  const users = result.hits.hits;
  return (
    <AdminPage ctx={ctx} title="Users" screen={USERS} mailOff={props.mailOff} notice={props.notice}>
      <FilterForm filters={filters} />
      {users.length === 0 ? (
        <p class="muted">No accounts{filters.q || filters.state ? " match" : " yet"}.</p>
      ) : (
        <TableBox label="Table of users">
          <DataTable caption="Accounts, newest first" columns={["E-mail", "Name", "State", "Created"]}>
            {users.map((u) => (
              <tr data-user-id={u.id}>
                <th scope="row">
                  <a href={`${USERS}/${u.id}`}>{u.email}</a>
                </th>
                <td>{u.profile.full_name || "—"}</td>
                <td>
                  <StateBadges user={u} />
                </td>
                <td>{created(u.created)}</td>
              </tr>
            ))}
          </DataTable>
        </TableBox>
      )}
      <AdminPager page={props.page} size={props.size} total={result.hits.total} href={(page) => USERS + queryOf({ ...filters, page: page === 1 ? null : page })} />
    </AdminPage>
  );
}

/** The actions that apply to the account as it is now (restore only when blocked or deactivated…). */
function actionsFor(user: ManagedUserJson): UserAction[] {
  const blocked = user.blocked_at !== null;
  return [
    blocked ? null : "block",
    blocked || !user.active ? "restore" : null,
    !blocked && user.active ? "deactivate" : null,
    !blocked && !user.active ? "activate" : null,
    user.verified_at === null ? "approve" : null,
    user.is_admin ? "demote" : "promote",
  ].filter((a): a is UserAction => a !== null);
}

function ActionButtons({ ctx, user, more }: { ctx: PageContext; user: ManagedUserJson; more?: Child }) {
  return (
    <section aria-labelledby="user-actions">
      <h2 id="user-actions">Actions</h2>
      <div class="actions">
        {actionsFor(user).map((action) => {
          const { button, confirm } = USER_ACTION_PAGES[action];
          // A destructive action goes through its confirmation step; the others post at once.
          return confirm ? (
            <a class="button" href={`${USERS}/${user.id}/${action}`}>
              {button}
            </a>
          ) : (
            <form method="post" action={`${USERS}/${user.id}/${action}`}>
              <CsrfField ctx={ctx} />
              <button type="submit">{button}</button>
            </form>
          );
        })}
      </div>
      {more}
    </section>
  );
}

export interface TokenRow {
  id: number;
  name: string;
  created: number;
  lastUsed: number | null;
  revokedAt?: number | null;
  expiresAt?: number | null;
}

function Tokens({ user, tokens }: { user: ManagedUserJson; tokens: TokenRow[] }) {
  return (
    <section aria-labelledby="user-tokens">
      <h2 id="user-tokens">Tokens</h2>
      {tokens.length === 0 ? (
        <p class="muted">No tokens.</p>
      ) : (
        <TableBox label="Table of tokens">
          <DataTable caption="The account's tokens" columns={["Name", "Created", "Last used", "State"]}>
            {tokens.map((t) => (
              <tr data-token-id={String(t.id)}>
                <th scope="row">{t.name}</th>
                <td>{when(t.created)}</td>
                <td>{t.lastUsed === null ? "never" : when(t.lastUsed)}</td>
                <td>
                  {t.revokedAt ? (
                    `Revoked ${when(t.revokedAt)}`
                  ) : (
                    <a href={`${USERS}/${user.id}/tokens/${t.id}/revoke`} aria-label={`Revoke token ${t.name}`}>
                      Revoke
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        </TableBox>
      )}
    </section>
  );
}

function Identities({ identities }: { identities: LinkedIdentity[] }) {
  return (
    <section aria-labelledby="user-identities">
      <h2 id="user-identities">Linked identities</h2>
      {identities.length === 0 ? (
        <p class="muted">No linked identities.</p>
      ) : (
        <TableBox label="Table of linked identities">
          <DataTable caption="The account's linked identities" columns={["Source", "Subject", "E-mail", "Linked", "Last sign-in"]}>
            {identities.map((i) => (
              <tr>
                <th scope="row">{i.title}</th>
                <td>{i.subject}</td>
                <td>{i.email ?? "—"}</td>
                <td>{when(i.created)}</td>
                <td>{when(i.lastSignIn)}</td>
              </tr>
            ))}
          </DataTable>
        </TableBox>
      )}
    </section>
  );
}

export function UserPage(props: {
  ctx: PageContext;
  mailOff: boolean;
  user: ManagedUserJson;
  row: UserRow;
  identities: LinkedIdentity[];
  tokens: TokenRow[];
  notice?: string;
  /** More actions (a password-reset link, delete) and sections (records, communities, sign-ins): user-sections.tsx. */
  more?: { actions: Child; sections: Child };
  /** Their files' total and quota (quota.tsx). */
  storage?: QuotaUsage;
  /** Their open user-moderation request and held uploads (moderation.tsx). */
  moderation?: PendingModeration | null;
}) {
  const { ctx, user, row } = props;
  const facts: [string, string][] = [
    ["E-mail", row.email],
    ["Username", row.username ?? "—"],
    ["Name", row.fullName || "—"],
    ["Affiliation", row.affiliations || "—"],
    ["ORCID", row.orcid ?? "—"],
    ["Created", when(row.created)],
    ["Confirmed", row.confirmedAt === null ? "not confirmed" : when(row.confirmedAt)],
    ["Blocked", row.blockedAt === null ? "no" : when(row.blockedAt)],
    ["Verified", row.verifiedAt === null ? "no" : when(row.verifiedAt)],
    ["Active", row.active ? "yes" : "no"],
    ["Administrator", row.isAdmin ? "yes" : "no"],
  ];
  return (
    <AdminPage ctx={ctx} title={`User ${row.email}`} screen={USERS} mailOff={props.mailOff} notice={props.notice}>
      <p>
        <a href={USERS}>Back to the users</a>
      </p>
      <p>
        <StateBadges user={user} />
      </p>
      <Facts facts={facts} />
      {props.moderation ? <UserModeration pending={props.moderation} /> : null}
      <ActionButtons ctx={ctx} user={user} more={props.more?.actions} />
      <Identities identities={props.identities} />
      {props.storage ? <UserStorage userId={user.id} usage={props.storage} /> : null}
      <Tokens user={user} tokens={props.tokens} />
      {props.more?.sections}
    </AdminPage>
  );
}

export function ConfirmUserActionPage({ ctx, mailOff, user, action }: { ctx: PageContext; mailOff: boolean; user: ManagedUserJson; action: UserAction }) {
  const page = USER_ACTION_PAGES[action];
  const who = user.email ?? `user ${user.id}`;
  return (
    <AdminPage ctx={ctx} title={`${page.button}: ${who}`} screen={USERS} mailOff={mailOff}>
      <ConfirmStep
        ctx={ctx}
        action={`${USERS}/${user.id}/${action}`}
        question={page.confirm ? page.confirm(who) : `${page.button} ${who}?`}
        detail={page.detail ? <p>{page.detail}</p> : undefined}
        button={page.button}
        back={`${USERS}/${user.id}`}
      />
    </AdminPage>
  );
}

export function RevokeTokenPage({ ctx, mailOff, user, token }: { ctx: PageContext; mailOff: boolean; user: ManagedUserJson; token: TokenRow }) {
  return (
    <AdminPage ctx={ctx} title={`Revoke token ${token.name}`} screen={USERS} mailOff={mailOff}>
      <ConfirmStep
        ctx={ctx}
        action={`${USERS}/${user.id}/tokens/${token.id}/revoke`}
        question={`Revoke the token “${token.name}” of ${user.email ?? `user ${user.id}`}?`}
        detail={<p>Any script using it is refused from now on. It cannot be brought back.</p>}
        button="Revoke the token"
        back={`${USERS}/${user.id}`}
      />
    </AdminPage>
  );
}
