// Communities curating records, as one service: draft reviews (reviews.ts) and the inclusion of
// published records (inclusions.ts), both moved by the requests engine and the two request types of request-types.ts.
import type { CurationDeps } from "./context";
import { createInclusions } from "./inclusions";
import { createReviews } from "./reviews";

export function createCurationService(deps: CurationDeps) {
  return { ...createReviews(deps), ...createInclusions(deps) };
}

export type CurationService = ReturnType<typeof createCurationService>;
