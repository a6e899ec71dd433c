// Wire shapes of the member, invitation and membership-request endpoints, and the values they take.
import { t } from "elysia";

/** InvenioRDM's bound on one call's `members` list: all of it runs in one transaction. */
export const MAX_MEMBERS_PER_CALL = 100;
/** Longest invitation or membership-request message, in characters before sanitising. */
export const MAX_MESSAGE_LENGTH = 10_000;

/** The spec's member sorts; `bestmatch` only with `q`, `name` otherwise. */
export const MEMBER_SORTS = ["bestmatch", "name", "newest", "oldest"];

/** Search parameters, all strings; facet filters (`role`, `visibility`, `status`, `is_open`) may repeat or be comma-separated. */
export const memberSearchQuery = t.Object(
  {
    q: t.Optional(t.String()),
    sort: t.Optional(t.String()),
    size: t.Optional(t.String()),
    page: t.Optional(t.String()),
  },
  { additionalProperties: true },
);

export type MemberSearchQuery = typeof memberSearchQuery.static & Record<string, unknown>;

/** Write bodies are checked by the service field by field (validate.ts), so a wrong shape is a 400 naming the field. */
export type MembersBody = Record<string, unknown>;

/** `{type, id}` of a member as clients name it. */
export interface MemberKey {
  type: "user" | "group";
  id: string;
}
