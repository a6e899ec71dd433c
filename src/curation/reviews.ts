// Draft reviews (`/api/records/{id}/draft/review`): a draft's submission to a community, kept as a
// `community-submission` request about the draft. The engine moves it (submit, accept, decline,
// cancel) and its type publishes the draft on acceptance; this service picks the community, checks
// the draft, and accepts at once where the community's review policy lets the submitter skip review.
import { systemActor, type Actor } from "../core/actor";
import { badRequest, notFound, validationError } from "../core/errors";
import type { RequestJson } from "../requests/present";
import type { RequestView } from "../requests/request-type";
import { readCommentBody } from "../requests/validate";
import { REVIEW_TYPE } from "./model";
import { canPublishDirectly } from "./policy";
import type { CurationDeps } from "./context";
import { readReviewBody } from "./validate";

const OPEN = "submitted";
const CLOSED = ["declined", "cancelled", "expired"];

export function createReviews(deps: CurationDeps) {
  const { curation, requests, communities } = deps;

  /** The draft's newest review request, or null. */
  const latestReview = (draftId: string): RequestView | null => requests.findRequests({ type: REVIEW_TYPE, topic: { kind: "record", id: draftId } }).at(-1) ?? null;

  /** A draft the caller may submit: 400 for the edit of a published record, which joins communities by inclusion. */
  function reviewableDraft(actor: Actor, draftId: string) {
    const draft = curation.reviewable(actor, draftId);
    if (draft.isEdit)
      throw badRequest("The record is already published: a published record joins a community by an inclusion request (POST /api/records/{id}/communities), not a review.");
    return draft;
  }

  /** Accepts at once, as the system, when the community lets the submitter publish into it without review. */
  function acceptIfDirect(actor: Actor, request: RequestView) {
    const community = communities.find(request.receiver.id);
    if (community && canPublishDirectly(actor, community, communities.rolesOf(actor))) requests.runAction(systemActor, request.id, "accept");
  }

  return {
    readReview(actor: Actor, draftId: string): RequestJson {
      curation.reviewable(actor, draftId);
      const review = latestReview(draftId);
      if (!review) throw notFound("The draft has no review request.");
      return requests.presentFor(actor, review.id);
    },

    /** Chooses (or changes, while not yet submitted) the community the draft is to be submitted to. */
    updateReview(actor: Actor, draftId: string, body: unknown): RequestJson {
      const draft = reviewableDraft(actor, draftId);
      const { community: key } = readReviewBody(body);
      const community = communities.findReadable(actor, key);
      if (!community) throw validationError([{ field: "receiver.community", messages: [`No community '${key}'.`] }]);
      const current = latestReview(draftId);
      if (current?.status === OPEN) throw badRequest("The review is open: cancel it before choosing another community.");
      if (current?.status === "accepted") throw badRequest("The review was accepted: the record is published in the community.");
      // The unsubmitted review it replaces goes: a draft has one review at a time.
      if (current?.status === "created") requests.deleteRequest(actor, current.id);
      return requests.createRequest(actor, {
        type: REVIEW_TYPE,
        receiver: { kind: "community", id: community.id },
        topic: { kind: "record", id: draft.id },
        title: curation.draftTitle(draft.id),
      });
    },

    /** Removes a review not yet submitted; an open one is cancelled instead, a closed one stays in the draft's history. */
    deleteReview(actor: Actor, draftId: string): void {
      reviewableDraft(actor, draftId);
      const review = latestReview(draftId);
      if (!review) throw notFound("The draft has no review request.");
      if (review.status === OPEN) throw badRequest("The review is open: cancel it (POST /api/requests/{id}/actions/cancel) rather than delete it.");
      if (review.status !== "created") throw badRequest(`The review is ${review.status}: it stays in the request history; choose a community again with PUT to submit anew.`);
      requests.deleteRequest(actor, review.id);
    },

    /**
     * Submits the draft to its review's community, with an optional comment; a review that was
     * declined, cancelled or expired is submitted anew to the same community. Accepted at once
     * (the draft published into the community) when the community lets the submitter do so.
     */
    submitReview(actor: Actor, draftId: string, body: unknown): RequestJson {
      const draft = reviewableDraft(actor, draftId);
      const review = latestReview(draftId);
      if (!review) throw notFound("The draft has no review request: choose the community first (PUT /api/records/{id}/draft/review).");
      if (review.status === OPEN) throw badRequest("The draft is already submitted for review.");
      let id = review.id;
      if (review.status === "created") requests.runAction(actor, id, "submit", body);
      else if (CLOSED.includes(review.status)) {
        const comment = readCommentBody(body, true);
        id = requests.createRequest(actor, {
          type: REVIEW_TYPE,
          receiver: review.receiver,
          topic: { kind: "record", id: draft.id },
          title: curation.draftTitle(draft.id),
          submit: true,
          comment,
        }).id;
      } else throw badRequest(`The review is ${review.status}.`);
      acceptIfDirect(actor, requests.findRequest(id)!);
      return requests.presentFor(actor, id);
    },
  };
}
