// Wire shapes of the records endpoints.
import { t } from "elysia";

export const recordSearchQuery = t.Object(
  {
    q: t.Optional(t.String()),
    sort: t.Optional(t.String()),
    size: t.Optional(t.String()),
    page: t.Optional(t.String()),
    allversions: t.Optional(t.String()),
  },
  { additionalProperties: true },
);
