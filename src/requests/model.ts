// Wire shapes of the requests endpoints: the listing's query schema, the values and limits their
// fields take, and the typed inputs validate.ts reads bodies and listing parameters into.
import { t } from "elysia";
import type { EntityKind, EntityRef, RequestStatus } from "./request-type";

export const requestSearchQuery = t.Object(
  {
    q: t.Optional(t.String()),
    sort: t.Optional(t.String()),
    size: t.Optional(t.String()),
    page: t.Optional(t.String()),
  },
  { additionalProperties: true },
);

export const ENTITY_KINDS: readonly EntityKind[] = ["user", "community", "record", "email", "group"];
export const TITLE_MAX = 250;
export const DESCRIPTION_MAX = 10_000;
/** Comment HTML, after sanitising. */
export const COMMENT_MAX = 100_000;

export interface RequestEdit {
  title?: string;
  description?: string;
}

export interface CommentInput {
  /** Sanitised HTML. */
  content: string;
  format: "html";
}

export type ListParams = Record<string, string | string[]>;

export interface ListFilters {
  q: string | undefined;
  sort: string | undefined;
  types: string[];
  statuses: RequestStatus[];
  isOpen: boolean | null;
  createdBy: EntityRef | null;
  receiver: EntityRef | null;
  topic: EntityRef | null;
}
