// The curation module's request types, built from the records' curation writes (app.ts hands them
// to the requests engine): the draft review (community-submission) and the inclusion of a
// published record (community-inclusion). Neither expires.
import { badRequest } from "../core/errors";
import type { RecordCuration } from "../records/curation";
import { CREATOR_ASKS_RECEIVER_DECIDES, type HookContext, type RequestType, type RequestView } from "../requests/request-type";
import { INCLUSION_TYPE, REVIEW_TYPE } from "./model";

export interface CurationTypeDeps {
  records: RecordCuration;
}

/** The draft and the community a review names; 400 when it names none. */
function reviewed({ request }: HookContext): { draftId: string; communityId: string } {
  if (request.topic?.kind !== "record" || request.receiver.kind !== "community") throw badRequest("This review names no draft or no community.");
  return { draftId: request.topic.id, communityId: request.receiver.id };
}

const titleOf = (request: RequestView) => request.title || `#${request.number}`;

/**
 * InvenioRDM's draft review: a user submits a draft to a community; its curators, managers and
 * owners accept (which publishes the draft into the community, in the same transaction) or decline
 * (the draft stays, editable and re-submittable); the submitter cancels. Submitting checks the
 * draft as publishing would.
 */
export function createSubmissionType({ records }: CurationTypeDeps): RequestType {
  return {
    id: REVIEW_TYPE,
    entities: { creator: ["user"], receiver: ["community"], topic: ["record"] },
    can: CREATOR_ASKS_RECEIVER_DECIDES,
    on: {
      async submit(ctx) {
        await records.checkReviewable(reviewed(ctx).draftId);
      },
      async accept(ctx) {
        const { draftId, communityId } = reviewed(ctx);
        ctx.afterCommit(await records.publishInto(draftId, communityId, ctx.now));
      },
    },
    expiresInDays: null,
    defaults: () => ({ title: "Review of a draft" }),
    notification(n) {
      const lead: Partial<Record<typeof n.event, string>> = {
        submitted: `${n.actorName} submitted "${titleOf(n.request)}" to your community for review.`,
        accepted: `${n.actorName} accepted "${titleOf(n.request)}": it is published in the community.`,
        declined: `${n.actorName} declined "${titleOf(n.request)}": the draft is yours to edit and submit again.`,
      };
      const text = lead[n.event];
      if (!text) return undefined;
      const comment = n.comment ? `\n\nComment:\n${n.comment}` : "";
      return { subject: `[${n.siteName}] Review ${n.event}: ${titleOf(n.request)}`, body: `${text}${comment}\n\nSee the review: ${n.url}\n` };
    },
  };
}

/**
 * InvenioRDM's inclusion request: the manager of a published record asks a community to include
 * it; the community's curators, managers and owners accept (the record's parent, so every
 * version, joins the community) or decline; the asker cancels.
 */
export function createInclusionType({ records }: CurationTypeDeps): RequestType {
  return {
    id: INCLUSION_TYPE,
    entities: { creator: ["user"], receiver: ["community"], topic: ["record"] },
    can: CREATOR_ASKS_RECEIVER_DECIDES,
    on: {
      async accept({ request, now }) {
        if (request.topic?.kind !== "record" || request.receiver.kind !== "community") throw badRequest("This inclusion request names no record or no community.");
        await records.include(request.topic.id, request.receiver.id, now);
      },
    },
    expiresInDays: null,
    defaults: () => ({ title: "Inclusion of a record" }),
  };
}
