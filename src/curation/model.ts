// Wire shapes of the draft review and community inclusion endpoints: the two request types' names,
// the limit of one call, and the inclusion entry validate.ts reads a body into.
export const REVIEW_TYPE = "community-submission";

export const INCLUSION_TYPE = "community-inclusion";

/** Most communities (or records) one call adds or removes, as InvenioRDM allows. */
export const MAX_PER_CALL = 10;

/** One community of an inclusion body. */
export interface InclusionEntry {
  id: string;
  requireReview: boolean;
  /** The raw comment body (`{payload: {content, format}}`), checked by the requests engine. */
  comment: unknown;
}
