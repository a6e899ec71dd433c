// User rows -> the users directory's JSON (invenio-users-resources' shape), cut to what the caller may see.
import type { Links } from "../core/links";
import { formatIsoTime } from "../core/time";
import type { UserView } from "./policy";
import type { UserRow } from "./store";

export function presentUser(row: UserRow, view: UserView, links: Links) {
  const self = `/users/${row.id}`;
  return {
    id: String(row.id),
    username: row.username,
    ...(view.showEmail ? { email: row.email } : {}),
    profile: { full_name: row.fullName, affiliations: row.affiliations },
    is_current_user: view.isCurrentUser,
    ...(view.showAccount
      ? {
          active: row.active,
          confirmed: row.confirmedAt !== null,
          created: formatIsoTime(row.created),
          updated: formatIsoTime(row.updated),
          revision_id: row.revisionId,
          preferences: { visibility: row.visibility, email_visibility: row.emailVisibility },
        }
      : {}),
    links: { self: links.api(self), avatar: links.api(`${self}/avatar.svg`) },
  };
}

export type UserJson = ReturnType<typeof presentUser>;

/** An account as administrators manage it (`/api/users/all`, the moderation actions): every field, the moderation state included. */
export function presentManagedUser(row: UserRow, isCurrentUser: boolean, links: Links) {
  return {
    ...presentUser(row, { isCurrentUser, showEmail: true, showAccount: true }, links),
    is_admin: row.isAdmin,
    blocked_at: row.blockedAt === null ? null : formatIsoTime(row.blockedAt),
    verified_at: row.verifiedAt === null ? null : formatIsoTime(row.verifiedAt),
  };
}

export type ManagedUserJson = ReturnType<typeof presentManagedUser>;
