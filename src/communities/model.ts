// Wire shapes of the communities endpoints, and the values their fields take.
export const VISIBILITIES = ["public", "restricted"] as const;
export const POLICIES = ["open", "closed"] as const;
/** `access.members_visibility`: who may list the members (InvenioRDM's MembersVisibilityEnum). */
export const MEMBERS_VISIBILITIES = ["public", "restricted"] as const;
/** `access.review_policy`: whose submissions skip review (InvenioRDM's ReviewPolicyEnum). */
export const REVIEW_POLICIES = ["open", "closed", "members"] as const;

export type Visibility = (typeof VISIBILITIES)[number];
export type Policy = (typeof POLICIES)[number];
export type MembersVisibility = (typeof MEMBERS_VISIBILITIES)[number];
export type ReviewPolicy = (typeof REVIEW_POLICIES)[number];

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
  access: { visibility: Visibility; members_visibility: MembersVisibility; member_policy: Policy; record_policy: Policy; review_policy: ReviewPolicy };
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
  /** `access.record_policy` (InvenioRDM's `record_submission_policy`); what skips review is `reviewPolicy`'s to say. */
  recordPolicy: Policy;
  /** `access.members_visibility`: `restricted`, only members and administrators list the members. */
  membersVisibility: MembersVisibility;
  /** `access.review_policy`: `closed`, every submission is reviewed; `open`, curators, managers and owners skip review; `members`, any member does. */
  reviewPolicy: ReviewPolicy;
}
