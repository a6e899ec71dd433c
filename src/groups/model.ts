// Wire shapes of the groups endpoints.
import { t } from "elysia";

/** `q` only: the directory has no paging (at most 10 hits) and one order (`name`). */
export const groupSearchQuery = t.Object({ q: t.Optional(t.String()) }, { additionalProperties: true });

export type GroupSearchQuery = typeof groupSearchQuery.static;
