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
  const latestReview = async (draftId: string): Promise<RequestView | null> =>
    (await requests.findRequests({ type: REVIEW_TYPE, topic: { kind: "record", id: draftId } })).at(-1) ?? null;

  /** A draft the caller may submit: 400 for the edit of a published record, which joins communities by inclusion. */
  async function reviewableDraft(actor: Actor, draftId: string) {
    const draft = await curation.reviewable(actor, draftId);
    if (draft.isEdit)
      throw badRequest("The record is already published: a published record joins a community by an inclusion request (POST /api/records/{id}/communities), not a review.");
    return draft;
  }

  /** Accepts at once, as the system, when the community lets the submitter publish into it without review. */
  async function acceptIfDirect(actor: Actor, request: RequestView) {
    const community = await communities.find(request.receiver.id);
    if (community && canPublishDirectly(actor, community, await communities.rolesOf(actor))) await requests.runAction(systemActor, request.id, "accept");
  }

  return {
    async readReview(actor: Actor, draftId: string): Promise<RequestJson> {
      await curation.reviewable(actor, draftId);
      const review = await latestReview(draftId);
      if (!review) throw notFound("The draft has no review request.");
      return await requests.presentFor(actor, review.id);
    },

    /** Chooses (or changes, while not yet submitted) the community the draft is to be submitted to. */
    async updateReview(actor: Actor, draftId: string, body: unknown): Promise<RequestJson> {
      const draft = await reviewableDraft(actor, draftId);
      const { community: key } = readReviewBody(body);
      const community = await communities.findReadable(actor, key);
      if (!community) throw validationError([{ field: "receiver.community", messages: [`No community '${key}'.`] }]);
      const current = await latestReview(draftId);
      if (current?.status === OPEN) throw badRequest("The review is open: cancel it before choosing another community.");
      if (current?.status === "accepted") throw badRequest("The review was accepted: the record is published in the community.");
      // The unsubmitted review it replaces goes: a draft has one review at a time.
      if (current?.status === "created") await requests.deleteRequest(actor, current.id);
      return await requests.createRequest(actor, {
        type: REVIEW_TYPE,
        receiver: { kind: "community", id: community.id },
        topic: { kind: "record", id: draft.id },
        title: await curation.draftTitle(draft.id),
      });
    },

    /** Removes a review not yet submitted; an open one is cancelled instead, a closed one stays in the draft's history. */
    async deleteReview(actor: Actor, draftId: string): Promise<void> {
      await reviewableDraft(actor, draftId);
      const review = await latestReview(draftId);
      if (!review) throw notFound("The draft has no review request.");
      if (review.status === OPEN) throw badRequest("The review is open: cancel it (POST /api/requests/{id}/actions/cancel) rather than delete it.");
      if (review.status !== "created") throw badRequest(`The review is ${review.status}: it stays in the request history; choose a community again with PUT to submit anew.`);
      await requests.deleteRequest(actor, review.id);
    },

    /**
     * Submits the draft to its review's community, with an optional comment; a review that was
     * declined, cancelled or expired is submitted anew to the same community. Accepted at once
     * (the draft published into the community) when the community lets the submitter do so.
     */
    async submitReview(actor: Actor, draftId: string, body: unknown): Promise<RequestJson> {
      const draft = await reviewableDraft(actor, draftId);
      const review = await latestReview(draftId);
      if (!review) throw notFound("The draft has no review request: choose the community first (PUT /api/records/{id}/draft/review).");
      if (review.status === OPEN) throw badRequest("The draft is already submitted for review.");
      let id = review.id;
      if (review.status === "created") await requests.runAction(actor, id, "submit", body);
      else if (CLOSED.includes(review.status)) {
        const comment = readCommentBody(body, true);
        id = (
          await requests.createRequest(actor, {
            type: REVIEW_TYPE,
            receiver: review.receiver,
            topic: { kind: "record", id: draft.id },
            title: await curation.draftTitle(draft.id),
            submit: true,
            comment,
          })
        ).id;
      } else throw badRequest(`The review is ${review.status}.`);
      await acceptIfDirect(actor, (await requests.findRequest(id))!);
      return await requests.presentFor(actor, id);
    },
  };
}
