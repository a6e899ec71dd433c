// Memberships and invitations -> the API's JSON: the `member` object with avatar links, the
// caller's `permissions`, and the `+00:00` timestamp format.
import type { Links } from "../core/links";
import { formatIsoTime } from "../core/time";
import type { Role } from "../communities/roles";
import { isSelf, memberPermissions, type Caller } from "./policy";
import type { ListedMember } from "./store";

export interface MemberEntity {
  type: "user" | "group";
  id: string;
  name: string;
  description: string;
}

/** `member`: a user's name and affiliations, or a group's name and description, with its avatar. */
export function presentEntity(entity: MemberEntity, links: Links) {
  const path = entity.type === "user" ? `/users/${entity.id}/avatar.svg` : `/groups/${encodeURIComponent(entity.id)}/avatar.svg`;
  return { type: entity.type, id: entity.id, name: entity.name, description: entity.description, avatar: links.api(path) };
}

export function entityOf(row: ListedMember): MemberEntity {
  const { member } = row;
  if (member.userId !== null) return { type: "user", id: String(member.userId), name: row.name, description: row.affiliations ?? "" };
  return { type: "group", id: member.groupId ?? "", name: row.name, description: row.groupDescription ?? "" };
}

/** An item of the public listing: only `id` and `member` (the spec). */
export function presentPublicMember(row: ListedMember, links: Links) {
  return { id: row.member.id, member: presentEntity(entityOf(row), links) };
}

/** An item of the members listing, `permissions` computed for the caller; `owners` is the community's owner count. */
export function presentMember(row: ListedMember, caller: Caller, owners: number, links: Links) {
  const { member } = row;
  const facts = { userId: member.userId, role: member.role as Role, visible: member.visible };
  return {
    id: member.id,
    member: presentEntity(entityOf(row), links),
    role: member.role,
    visible: member.visible,
    is_current_user: isSelf(caller, facts),
    permissions: memberPermissions(caller, facts, owners),
    created: formatIsoTime(member.created),
    updated: formatIsoTime(member.updated),
    revision_id: member.revisionId,
  };
}

export type MemberJson = ReturnType<typeof presentMember>;

/** A request as the engine renders it for the caller: what invitation items repeat of it. */
export interface RequestSummary {
  id: string;
  status: string;
  is_open: boolean;
  expires_at: string | null;
  revision_id: number;
}

/**
 * An invitation (or membership-request) item: as a member, but its `permissions` are the
 * request's ({can_cancel, can_update_role} for invitations) and it adds `request` (the spec).
 * `id` is the membership the user gets on accepting; the revision is the request's.
 */
export function presentRequestItem(
  item: { id: string; user: MemberEntity; role: Role; visible: boolean; created: number; updated: number },
  request: RequestSummary,
  permissions: Record<string, boolean>,
  caller: Caller,
  links: Links,
) {
  return {
    id: item.id,
    member: presentEntity(item.user, links),
    role: item.role,
    visible: item.visible,
    is_current_user: isSelf(caller, { userId: Number(item.user.id) }),
    permissions,
    request: { id: request.id, status: request.status, is_open: request.is_open, expires_at: request.expires_at },
    created: formatIsoTime(item.created),
    updated: formatIsoTime(item.updated),
    revision_id: request.revision_id,
  };
}
