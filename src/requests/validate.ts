// Reading the requests endpoints' bodies (edit, comment, an action's payload) and listing
// parameters into checked values (400 naming the field otherwise), so services get only well-formed input.
import { readActionPayload } from "../core/body";
import { type FieldError, invalidQuery, validationError } from "../core/errors";
import { sanitizeDescription } from "../core/html";
import { isRequestStatus } from "./machine";
import { COMMENT_MAX, DESCRIPTION_MAX, ENTITY_KINDS, TITLE_MAX, type CommentInput, type ListFilters, type ListParams, type RequestEdit } from "./model";
import type { EntityKind, EntityRef, RequestStatus } from "./request-type";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const typeName = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "a list" : `a ${typeof v}`);

/** `PUT /requests/{id}`: title and description; other (read-only) members are ignored, as InvenioRDM ignores dump-only fields. */
export function readRequestEdit(body: unknown): RequestEdit {
  if (!isObject(body)) throw validationError([{ field: "", messages: ["The request body must be a JSON object."] }]);
  const errors: FieldError[] = [];
  const out: RequestEdit = {};
  const text = (field: "title" | "description", max: number) => {
    const value = body[field];
    if (value === undefined) return;
    if (typeof value !== "string") errors.push({ field, messages: [`Must be a string, not ${typeName(value)}.`] });
    else if (value.trim().length > max) errors.push({ field, messages: [`At most ${max} characters.`] });
    else out[field] = value.trim();
  };
  text("title", TITLE_MAX);
  text("description", DESCRIPTION_MAX);
  if (errors.length) throw validationError(errors);
  return out;
}

/**
 * A payload that carries something else than a comment (an access request's `expires_at` on
 * accept) and no `content`: an action without comment, its payload read by the type's hook.
 */
const carriesNoComment = (payload: unknown) => isObject(payload) && payload.content === undefined && Object.keys(payload).some((k) => k !== "content" && k !== "format");

/**
 * `{"payload": {"content": "<html>", "format": "html"}}`; absent when `optional` and no payload is
 * sent (an action without comment), or one without `content` but with other members.
 */
export function readCommentBody(body: unknown, optional: boolean): CommentInput | null {
  // An action's comment is its optional payload: `[]`, `{}` and `null` mean none, as no body does.
  if (optional) body = readActionPayload(body);
  if (body === undefined || body === null || (optional && isObject(body) && (body.payload === undefined || carriesNoComment(body.payload)))) {
    if (optional) return null;
    throw validationError([{ field: "payload", messages: ["Missing data for required field."] }]);
  }
  if (!isObject(body)) throw validationError([{ field: "", messages: ["The request body must be a JSON object."] }]);
  const payload = body.payload;
  if (!isObject(payload)) {
    const message = payload === undefined ? "Missing data for required field." : `Must be an object, not ${typeName(payload)}.`;
    throw validationError([{ field: "payload", messages: [message] }]);
  }
  const errors: FieldError[] = [];
  const format = payload.format ?? "html";
  if (format !== "html") errors.push({ field: "payload.format", messages: ["Must be one of: html."] });
  const raw = payload.content;
  let content = "";
  if (raw === undefined || raw === null) errors.push({ field: "payload.content", messages: ["Missing data for required field."] });
  else if (typeof raw !== "string") errors.push({ field: "payload.content", messages: [`Must be a string, not ${typeName(raw)}.`] });
  else {
    content = sanitizeDescription(raw);
    if (!content) errors.push({ field: "payload.content", messages: ["A comment needs some text."] });
    else if (content.length > COMMENT_MAX) errors.push({ field: "payload.content", messages: [`At most ${COMMENT_MAX} characters.`] });
  }
  if (errors.length) throw validationError(errors);
  return { content, format: "html" };
}

/** The `payload` object of an action's body, handed to the type's hook as it is; {} without one. */
export const actionInput = (body: unknown): Record<string, unknown> => (isObject(body) && isObject(body.payload) ? body.payload : {});

/** A listing filter `kind:id` (`user:3`, `community:<uuid>`, `record:abcde-12345`). */
export function readRefParam(field: string, raw: string): EntityRef {
  const at = raw.indexOf(":");
  const kind = raw.slice(0, at) as EntityKind;
  const id = raw.slice(at + 1).trim();
  if (at < 1 || !ENTITY_KINDS.includes(kind) || !id) {
    throw invalidQuery([{ field, messages: [`Must be <kind>:<id>, the kind one of: ${ENTITY_KINDS.join(", ")}.`] }]);
  }
  return { kind, id };
}

const all = (params: ListParams, name: string) => {
  const v = params[name];
  return (v === undefined ? [] : Array.isArray(v) ? v : [v]).filter((x) => x !== "");
};
const last = (params: ListParams, name: string) => all(params, name).at(-1);

/** The listing's filters from its query parameters; 400 "Invalid querystring parameters." naming a bad one. */
export function readListFilters(params: ListParams): ListFilters {
  const statuses = all(params, "status");
  const bad = statuses.find((s) => !isRequestStatus(s));
  const errors: FieldError[] = [];
  if (bad !== undefined) errors.push({ field: "status", messages: [`'${bad}' is not a status; one of: created, submitted, accepted, declined, cancelled, expired.`] });
  const open = last(params, "is_open");
  if (open !== undefined && open !== "true" && open !== "false") errors.push({ field: "is_open", messages: ["Must be true or false."] });
  if (errors.length) throw invalidQuery(errors);
  const ref = (name: string) => {
    const v = last(params, name);
    return v === undefined ? null : readRefParam(name, v);
  };
  return {
    q: last(params, "q"),
    sort: last(params, "sort"),
    types: all(params, "type"),
    statuses: statuses as RequestStatus[],
    isOpen: open === undefined ? null : open === "true",
    createdBy: ref("created_by"),
    receiver: ref("receiver"),
    topic: ref("topic"),
  };
}
