// /communities/{slug}/members: the members with their roles (everyone the members service lets list
// them; others see the public members), and for managers and owners the invitations, the invite
// form, role changes and removal, each through the members service with the caller's actor.
import { DataTable } from "../table";
import type { Actor } from "../../core/actor";
import { ROLE_TITLES, ROLES } from "../../communities/roles";
import { HttpError, type FieldError } from "../../core/errors";
import type { PagesDeps } from "../context";
import { Layout, type PageContext } from "../layout";
import { Pager } from "../search/parts";
import type { SearchState } from "../search/state";
import { canSeeRequests, CommunityHead, CommunityTabs, hasLogo, titleOf } from "./parts";

type Json = Record<string, any>;

const ROLE_LABELS: Record<string, string> = ROLE_TITLES;
const STATUS_LABELS: Record<string, string> = { submitted: "Waiting for an answer", accepted: "Accepted", declined: "Declined", cancelled: "Cancelled", expired: "Expired" };

export interface MembersView {
  community: Json;
  hasLogo: boolean;
  /** The members listing, or (for a caller who may not list them) the public members; null when the community shows its members to members only. */
  members: Json | null;
  /** Whether `members` is the full listing (roles and permissions) or the public one. */
  full: boolean;
  /** The invitations, for those the service lets see them (managers, owners, administrators). */
  invitations: Json | null;
  settings: boolean;
  /** Whether the Requests tab is shown (curators and up). */
  requests: boolean;
}

export interface MembersNotice {
  ok: boolean;
  text: string;
  errors?: FieldError[];
}

/** A listing the service may refuse to the caller (401, 403): null then. */
async function ifAllowed(call: () => Promise<unknown>): Promise<Json | null> {
  try {
    return (await call()) as Json;
  } catch (error) {
    if (error instanceof HttpError && (error.status === 401 || error.status === 403)) return null;
    throw error;
  }
}

export async function membersView(deps: PagesDeps, actor: Actor, slug: string, state: SearchState): Promise<MembersView> {
  const { communities, members } = deps.services;
  const community = (await communities.readCommunity(actor, slug)) as Json;
  const paging = { page: String(state.page), size: String(state.size), sort: "name" };
  const full = await ifAllowed(() => members.searchMembers(actor, community.id, paging));
  // members_visibility restricted: the public listing is refused to non-members too.
  const listing = full ?? (await ifAllowed(() => members.searchPublicMembers(actor, community.id, { page: paging.page, size: paging.size })));
  const invitations = await ifAllowed(() => members.searchInvitations(actor, community.id, { size: "100", sort: "newest", is_open: "true" }));
  return {
    community,
    hasLogo: await hasLogo(deps, actor, community.id),
    members: listing,
    full: full !== null,
    invitations,
    settings: (await communities.permissionsOf(actor, community.id)).can_update,
    requests: await canSeeRequests(deps, actor, String(community.id)),
  };
}

function RoleForm({ action, csrf, member, index }: { action: string; csrf: string; member: Json; index: number }) {
  const name = String(member.member?.name ?? "");
  return (
    <form class="inline" method="post" action={`${action}/role`}>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="type" value={String(member.member?.type)} />
      <input type="hidden" name="id" value={String(member.member?.id)} />
      <label class="sr-only" for={`role-${index}`}>
        Role of {name}
      </label>
      <select id={`role-${index}`} name="role">
        {ROLES.map((r) => (
          <option value={r} selected={member.role === r}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </select>{" "}
      <button type="submit" class="secondary">
        Change role<span class="sr-only"> of {name}</span>
      </button>
    </form>
  );
}

function RemoveForm({ action, csrf, member, leave }: { action: string; csrf: string; member: Json; leave: boolean }) {
  const name = String(member.member?.name ?? "");
  return (
    <form class="inline" method="post" action={`${action}/remove`} data-confirm={leave ? "Leave this community?" : `Remove ${name} from the community?`}>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="type" value={String(member.member?.type)} />
      <input type="hidden" name="id" value={String(member.member?.id)} />
      <button type="submit" class="danger">
        {leave ? "Leave" : "Remove"}
        <span class="sr-only">{leave ? " the community" : ` ${name}`}</span>
      </button>
    </form>
  );
}

function MembersTable({ view, action, csrf }: { view: MembersView; action: string; csrf: string }) {
  if (!view.members) return <p class="muted">Only the community's members can see who its members are.</p>;
  const hits = (view.members.hits?.hits ?? []) as Json[];
  if (hits.length === 0) return <p class="muted">No members to show.</p>;
  return (
    <DataTable caption="Members" class="stack" columns={["Name", view.full ? "Role" : null, view.full ? "Actions" : null]}>
      {hits.map((m, i) => {
        const p = (m.permissions ?? {}) as Json;
        return (
          <tr>
            <th scope="row">
              {String(m.member?.name ?? "")}
              {m.member?.type === "group" ? <span class="muted"> (group)</span> : null}
              {m.is_current_user ? <span class="muted"> (you)</span> : null}
            </th>
            {view.full ? <td>{p.can_update_role ? <RoleForm action={action} csrf={csrf} member={m} index={i} /> : (ROLE_LABELS[String(m.role)] ?? String(m.role))}</td> : null}
            {view.full ? (
              <td>
                {p.can_delete ? <RemoveForm action={action} csrf={csrf} member={m} leave={false} /> : null}
                {p.can_leave ? <RemoveForm action={action} csrf={csrf} member={m} leave={true} /> : null}
                {!p.can_delete && !p.can_leave ? <span class="muted">—</span> : null}
              </td>
            ) : null}
          </tr>
        );
      })}
    </DataTable>
  );
}

function InviteForm({ action, csrf, notice, values }: { action: string; csrf: string; notice?: MembersNotice; values?: InviteValues }) {
  const errors = new Map<string, string[]>();
  for (const e of notice?.errors ?? []) {
    const field = e.field.startsWith("members") ? "member" : e.field === "role" ? "role" : e.field === "message" ? "message" : "member";
    errors.set(field, [...(errors.get(field) ?? []), ...e.messages]);
  }
  const invalid = (field: string) => (errors.get(field)?.length ? { "aria-invalid": "true", "aria-describedby": `invite-${field}-error` } : {});
  const error = (field: string) =>
    errors.get(field)?.length ? (
      <p class="field-error" id={`invite-${field}-error`}>
        {errors.get(field)!.join(" ")}
      </p>
    ) : null;
  return (
    <form class="card" method="post" action={`${action}/invitations`} aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite a member</h2>
      <input type="hidden" name="csrf" value={csrf} />
      <label for="invite-member">Username or e-mail address</label>
      <input id="invite-member" name="member" type="text" required autocomplete="off" value={values?.member ?? ""} {...invalid("member")} />
      {error("member")}
      <label for="invite-role">Role</label>
      <select id="invite-role" name="role" {...invalid("role")}>
        {ROLES.map((r) => (
          <option value={r} selected={(values?.role ?? "reader") === r}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </select>
      {error("role")}
      <label for="invite-message">Message (optional)</label>
      <textarea id="invite-message" name="message" {...invalid("message")}>
        {values?.message ?? ""}
      </textarea>
      {error("message")}
      <p class="muted">
        The person gets an invitation on their dashboard and becomes a member when they accept it. E-mail addresses are found only when their owners have made them public.
      </p>
      <div class="actions">
        <button type="submit">Send invitation</button>
      </div>
    </form>
  );
}

function Invitations({ invitations }: { invitations: Json }) {
  const hits = (invitations.hits?.hits ?? []) as Json[];
  return (
    <section aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">Open invitations</h2>
      {hits.length === 0 ? (
        <p class="muted">No open invitations.</p>
      ) : (
        <DataTable caption="Open invitations" class="stack" columns={["Invited", "Role", "Status", "Expires"]}>
          {hits.map((inv) => (
            <tr>
              <th scope="row">{String(inv.member?.name ?? "")}</th>
              <td>{ROLE_LABELS[String(inv.role)] ?? String(inv.role)}</td>
              <td>
                <a href={`/requests/${encodeURIComponent(String(inv.request?.id))}`}>{STATUS_LABELS[String(inv.request?.status)] ?? String(inv.request?.status)}</a>
              </td>
              <td>{inv.request?.expires_at ? String(inv.request.expires_at).slice(0, 10) : "—"}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

export interface InviteValues {
  member: string;
  role: string;
  message: string;
}

export function MembersPage(props: { ctx: PageContext; view: MembersView; state: SearchState; maxWindow: number; notice?: MembersNotice; invite?: InviteValues }) {
  const { ctx, view, notice } = props;
  const csrf = ctx.actor.csrf ?? "";
  const action = `/communities/${encodeURIComponent(String(view.community.slug))}/members`;
  const total = Number(view.members?.hits?.total ?? 0);
  const inviteProblem = notice && !notice.ok && notice.errors?.some((e) => e.field.startsWith("members") || e.field === "role" || e.field === "message");
  return (
    <Layout ctx={ctx} title={`Members of ${titleOf(view.community)}`}>
      <div class="community-page">
        <CommunityHead community={view.community} has={view.hasLogo} heading="Members" />
        <CommunityTabs community={view.community} current="members" members={true} settings={view.settings} requests={view.requests} />
        {notice ? (
          <p class={`notice ${notice.ok ? "ok" : "error"}`} role={notice.ok ? "status" : "alert"}>
            {notice.text}
          </p>
        ) : null}
        <div class="columns main-side">
          <section aria-labelledby="members-heading">
            <h2 id="members-heading">{view.full ? `Members (${total})` : "Public members"}</h2>
            {!view.full && view.members ? <p class="muted">Members choose whether they are listed here.</p> : null}
            <MembersTable view={view} action={action} csrf={csrf} />
            <Pager state={props.state} total={total} maxWindow={props.maxWindow} />
          </section>
          {view.invitations ? (
            <div>
              <InviteForm action={action} csrf={csrf} notice={inviteProblem ? notice : undefined} values={props.invite} />
              <Invitations invitations={view.invitations} />
            </div>
          ) : null}
        </div>
      </div>
    </Layout>
  );
}
