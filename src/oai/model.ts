// Wire shapes of the OAI-PMH set administration endpoints.
import { t } from "elysia";

const text = t.Optional(t.String());

/** Required fields are checked by the service, so a missing one reads "Missing data for required field." like the rest of the API. */
export const setCreateBody = t.Object({ name: text, spec: text, search_pattern: text, description: t.Optional(t.Union([t.String(), t.Null()])) }, { additionalProperties: true });

/** `spec` may be sent back unchanged (clients PUT what they GET); a different one is refused. */
export const setUpdateBody = setCreateBody;

export const setListQuery = t.Object(
  { q: t.Optional(t.String()), sort: t.Optional(t.String()), sort_direction: t.Optional(t.String()), size: t.Optional(t.String()), page: t.Optional(t.String()) },
  { additionalProperties: true },
);

export const setIdParams = t.Object({ id: t.String() });

export type SetBody = typeof setCreateBody.static;
export type SetListQuery = typeof setListQuery.static;
