// Wire shapes of the communities endpoints, and the values their fields take.
export const VISIBILITIES = ["public", "restricted"] as const;
export const POLICIES = ["open", "closed"] as const;
/** Community roles, weakest first: a member holding several (directly and through groups) has the strongest. */
export const ROLES = ["reader", "curator", "manager", "owner"] as const;
/** The spec's sort options, also the default of COMMUNITIES_SEARCH_SORT_OPTIONS. */
export const COMMUNITY_SORTS = ["bestmatch", "newest", "oldest", "updated-desc", "updated-asc", "version"] as const;

export type Visibility = (typeof VISIBILITIES)[number];
export type Role = (typeof ROLES)[number];

/** Search parameters as the query string gives them: a repeated one (`?type=a&type=b`) as a list. */
export type CommunitySearchQuery = Record<string, string | string[] | undefined>;

/**
 * Bodies are checked by the service, field by field with InvenioRDM's messages (a TypeBox schema
 * would report `metadata` missing where the spec wants `metadata.title`).
 */
export type CommunityBody = Record<string, unknown>;

/** A stored community's `access`, `slug` and `metadata` after checking. */
export interface CommunityInput {
  slug: string;
  access: { visibility: Visibility; member_policy: string; record_policy: string };
  metadata: Record<string, unknown>;
}

/** What the other engines need of a community (requests, members). */
export interface CommunitySummary {
  id: string;
  slug: string;
  title: string;
  visibility: "public" | "restricted";
  /** `access.member_policy`: whether people may ask to join (the members module's membership requests). */
  memberPolicy: "open" | "closed";
  /** `access.record_policy`: `open`, members include records without review; `closed`, review always. */
  recordPolicy: "open" | "closed";
}
