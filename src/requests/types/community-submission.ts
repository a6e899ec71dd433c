// The community-submission request type (InvenioRDM's draft review): a user submits a draft to a
// community; its curators, managers and owners accept (which publishes the draft into the
// community, in the same transaction) or decline (the draft stays, editable and re-submittable);
// the submitter cancels. Submitting checks the draft as publishing would. It does not expire.
import { HttpError } from "../../core/errors";
import { defaultMailText } from "../notify";
import { CREATOR_ASKS_RECEIVER_DECIDES, type HookContext, type RecordCuration, type RequestType, type RequestView } from "../types";

function curation(ctx: HookContext): { records: RecordCuration; draftId: string; communityId: string } {
  const records = ctx.services.records;
  if (!records) throw new HttpError(503, "Records cannot be published: the records module is not available.");
  const { request } = ctx;
  if (request.topic?.kind !== "record" || request.receiver.kind !== "community") throw new HttpError(400, "This review names no draft or no community.");
  return { records, draftId: request.topic.id, communityId: request.receiver.id };
}

const titleOf = (request: RequestView) => request.title || `#${request.number}`;

export const communitySubmission: RequestType = {
  id: "community-submission",
  entities: { creator: ["user"], receiver: ["community"], topic: ["record"] },
  can: CREATOR_ASKS_RECEIVER_DECIDES,
  on: {
    submit(ctx) {
      const { records, draftId } = curation(ctx);
      records.checkReviewable(draftId);
    },
    accept(ctx) {
      const { records, draftId, communityId } = curation(ctx);
      ctx.afterCommit(records.publishInto(draftId, communityId, ctx.now));
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
    if (!text) return defaultMailText(n);
    const comment = n.comment ? `\n\nComment:\n${n.comment}` : "";
    return { subject: `[${n.siteName}] Review ${n.event}: ${titleOf(n.request)}`, body: `${text}${comment}\n\nSee the review: ${n.url}\n` };
  },
};
