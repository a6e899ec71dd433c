// Checks of the member write bodies (add, invite, update, delete, membership requests): every
// problem reported with its dotted field, as InvenioRDM's marshmallow schemas do.
import { validationError, type FieldError } from "../core/errors";
import { sanitizeDescription } from "../core/html";
import { isRole, ROLES, type Role } from "../communities/roles";
import { MAX_MEMBERS_PER_CALL, MAX_MESSAGE_LENGTH, type MemberKey, type MembersBody } from "./model";

const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "a list" : typeof v);

/** `members`: 1 to 100 distinct `{type, id}` of the allowed types. */
function checkMemberList(body: MembersBody, types: readonly MemberKey["type"][], errors: FieldError[]): MemberKey[] {
  const list = body.members;
  if (list === undefined) {
    errors.push({ field: "members", messages: ["Missing data for required field."] });
    return [];
  }
  if (!Array.isArray(list)) {
    errors.push({ field: "members", messages: [`Must be a list of {type, id}, not ${kindOf(list)}.`] });
    return [];
  }
  if (list.length < 1 || list.length > MAX_MEMBERS_PER_CALL) {
    errors.push({ field: "members", messages: [`Must list 1 to ${MAX_MEMBERS_PER_CALL} members.`] });
    return [];
  }
  const keys: MemberKey[] = [];
  const seen = new Set<string>();
  list.forEach((item: unknown, i) => {
    const field = `members.${i}`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      errors.push({ field, messages: [`Must be an object {type, id}, not ${kindOf(item)}.`] });
      return;
    }
    const { type, id } = item as Record<string, unknown>;
    if (type !== "user" && type !== "group") errors.push({ field: `${field}.type`, messages: ["Must be one of: user, group."] });
    if (typeof id !== "string" && typeof id !== "number") errors.push({ field: `${field}.id`, messages: ["Missing data for required field."] });
    else if (String(id).trim() === "" || String(id).length > 255) errors.push({ field: `${field}.id`, messages: ["Not a valid member id."] });
    if ((type !== "user" && type !== "group") || (typeof id !== "string" && typeof id !== "number")) return;
    if (!types.includes(type)) {
      // Rule 1 of the spec: groups are added, users invited (and groups cannot accept an invitation).
      const message = type === "user" ? "Users cannot be added directly: invite them (POST .../invitations)." : "Groups cannot be invited: add them (POST .../members).";
      errors.push({ field: `${field}.type`, messages: [message] });
      return;
    }
    const key: MemberKey = { type, id: String(id).trim() };
    if (seen.has(`${key.type}:${key.id}`)) errors.push({ field, messages: ["This member is listed twice."] });
    seen.add(`${key.type}:${key.id}`);
    keys.push(key);
  });
  return keys;
}

function checkRole(body: MembersBody, required: boolean, errors: FieldError[]): Role | undefined {
  if (body.role === undefined && !required) return undefined;
  if (body.role === undefined) errors.push({ field: "role", messages: ["Missing data for required field."] });
  else if (!isRole(body.role)) errors.push({ field: "role", messages: [`Invalid role: must be one of ${ROLES.join(", ")}.`] });
  return isRole(body.role) ? body.role : undefined;
}

function checkVisible(body: MembersBody, errors: FieldError[]): boolean | undefined {
  if (body.visible === undefined) return undefined;
  if (typeof body.visible !== "boolean") errors.push({ field: "visible", messages: ["Not a valid boolean."] });
  return typeof body.visible === "boolean" ? body.visible : undefined;
}

/** An optional HTML message, sanitised; "" when absent. */
export function checkMessage(body: MembersBody, errors: FieldError[]): string {
  const message = body.message;
  if (message === undefined || message === null) return "";
  if (typeof message !== "string") {
    errors.push({ field: "message", messages: ["Not a valid string."] });
    return "";
  }
  if (message.length > MAX_MESSAGE_LENGTH) {
    errors.push({ field: "message", messages: [`At most ${MAX_MESSAGE_LENGTH} characters.`] });
    return "";
  }
  return sanitizeDescription(message);
}

/** The body as an object: a missing body is an empty one; any other JSON value is a 400 (the hooks already refuse most). */
function asBody(body: unknown): MembersBody {
  if (body === undefined || body === null) return {};
  if (typeof body === "object" && !Array.isArray(body)) return body as MembersBody;
  throw validationError([{ field: "", messages: [`The request body must be a JSON object, not ${kindOf(body)}.`] }]);
}

const done = <T>(errors: FieldError[], value: T): T => {
  if (errors.length) throw validationError(errors);
  return value;
};

/** POST .../members: groups, a role, an optional visibility. */
export function checkAddBody(raw: unknown) {
  const body = asBody(raw);
  const errors: FieldError[] = [];
  const members = checkMemberList(body, ["group"], errors);
  return done(errors, { members, role: checkRole(body, true, errors)!, visible: checkVisible(body, errors) });
}

/** POST .../invitations: users, a role, an optional visibility and message. */
export function checkInviteBody(raw: unknown) {
  const body = asBody(raw);
  const errors: FieldError[] = [];
  const members = checkMemberList(body, ["user"], errors);
  const role = checkRole(body, true, errors)!;
  const visible = checkVisible(body, errors);
  return done(errors, { members, role, visible, message: checkMessage(body, errors) });
}

/** PUT .../members: the members and a new role and/or visibility. */
export function checkUpdateBody(raw: unknown) {
  const body = asBody(raw);
  const errors: FieldError[] = [];
  const members = checkMemberList(body, ["user", "group"], errors);
  const role = checkRole(body, false, errors);
  const visible = checkVisible(body, errors);
  if (body.role === undefined && body.visible === undefined) errors.push({ field: "", messages: ["Missing fields 'role' and/or 'visible'."] });
  return done(errors, { members, role, visible });
}

/** PUT .../invitations: the invited users and their new role. */
export function checkInvitationUpdateBody(raw: unknown) {
  const body = asBody(raw);
  const errors: FieldError[] = [];
  const members = checkMemberList(body, ["user"], errors);
  const role = checkRole(body, true, errors)!;
  // Accepted for symmetry with members (the spec lists it); an invitation's visibility is the invitee's to choose.
  const visible = checkVisible(body, errors);
  return done(errors, { members, role, visible });
}

/** DELETE .../members: the members to remove (the caller themself to leave). */
export function checkDeleteBody(raw: unknown) {
  const body = asBody(raw);
  const errors: FieldError[] = [];
  return done(errors, { members: checkMemberList(body, ["user", "group"], errors) });
}

/** POST .../membership-requests: an optional message. */
export function checkMembershipRequestBody(raw: unknown) {
  const body = asBody(raw);
  const errors: FieldError[] = [];
  return done(errors, { message: checkMessage(body, errors) });
}
