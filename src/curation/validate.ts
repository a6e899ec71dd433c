// Reading the draft review and community inclusion bodies field by field into checked values
// (the receiver community; the communities or records to add, remove or make default); 400 with every problem.
import { validationError, type FieldError } from "../core/errors";
import { MAX_PER_CALL, REVIEW_TYPE, type InclusionEntry } from "./model";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `{receiver: {community: <uuid or slug>}, type: "community-submission"}` -> the community key; 400 with every problem. */
export function readReviewBody(body: unknown): { community: string } {
  if (!isObject(body)) throw validationError([{ field: "", messages: ["The request body must be a JSON object."] }]);
  const errors: FieldError[] = [];
  if (body.type !== undefined && body.type !== REVIEW_TYPE) errors.push({ field: "type", messages: [`Must be one of: ${REVIEW_TYPE}.`] });
  const receiver = body.receiver;
  let community = "";
  if (!isObject(receiver))
    errors.push({
      field: "receiver",
      messages: [receiver === undefined || receiver === null ? "Missing data for required field." : 'Must be an object such as {"community": "<id>"}.'],
    });
  else if (typeof receiver.community !== "string" || !receiver.community.trim()) errors.push({ field: "receiver.community", messages: ["Missing data for required field."] });
  else if (receiver.community.length > 200) errors.push({ field: "receiver.community", messages: ["No such community."] });
  else community = receiver.community.trim();
  if (errors.length) throw validationError(errors);
  return { community };
}

/** A list of 1 to MAX_PER_CALL unique `{id}` objects under `key` (`communities` or `records`); 400 with every problem. */
function readIdList(body: unknown, key: string): Record<string, unknown>[] {
  if (!isObject(body)) throw validationError([{ field: "", messages: ["The request body must be a JSON object."] }]);
  const list = body[key];
  if (!Array.isArray(list)) throw validationError([{ field: key, messages: [list === undefined ? "Missing data for required field." : "Must be a list."] }]);
  if (list.length < 1 || list.length > MAX_PER_CALL) throw validationError([{ field: key, messages: [`Length must be between 1 and ${MAX_PER_CALL}.`] }]);
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  list.forEach((item, i) => {
    if (!isObject(item) || typeof item.id !== "string" || !item.id.trim() || item.id.length > 200) {
      errors.push({ field: `${key}.${i}.id`, messages: ["Must be an object with a string id."] });
      return;
    }
    if (seen.has(item.id.trim())) errors.push({ field: `${key}.${i}.id`, messages: ["Duplicated id."] });
    seen.add(item.id.trim());
  });
  if (errors.length) throw validationError(errors);
  return list as Record<string, unknown>[];
}

/** `{communities: [{id, require_review?, comment?}]}` of POST /api/records/{id}/communities. */
export function readInclusionBody(body: unknown): InclusionEntry[] {
  const list = readIdList(body, "communities");
  const errors: FieldError[] = [];
  const entries = list.map((item, i) => {
    if (item.require_review !== undefined && typeof item.require_review !== "boolean")
      errors.push({ field: `communities.${i}.require_review`, messages: ["Not a valid boolean."] });
    if (item.comment !== undefined && !isObject(item.comment))
      errors.push({ field: `communities.${i}.comment`, messages: ['Must be an object such as {"payload": {"content": "..."}}.'] });
    return { id: String(item.id).trim(), requireReview: item.require_review === true, comment: item.comment };
  });
  if (errors.length) throw validationError(errors);
  return entries;
}

/** The ids of `{communities: [{id}]}` (DELETE /api/records/{id}/communities) or `{records: [{id}]}` (DELETE /api/communities/{id}/records). */
export const readRemovalBody = (body: unknown, key: "communities" | "records"): string[] => readIdList(body, key).map((item) => String(item.id).trim());

/** `{default: <community id>}` of PUT /api/records/{id}/communities. */
export function readDefaultBody(body: unknown): string {
  if (!isObject(body)) throw validationError([{ field: "", messages: ["The request body must be a JSON object."] }]);
  const value = body.default;
  if (typeof value !== "string" || !value.trim() || value.length > 200)
    throw validationError([{ field: "default", messages: [value === undefined ? "Missing data for required field." : "Must be a community id."] }]);
  return value.trim();
}
