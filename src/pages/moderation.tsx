// How pages show a draft held by moderation of new accounts (its `status`, decided by the records
// service): the words of the uploads list and the notice of the deposit and preview pages.
import { AWAITING_MODERATION } from "../records/present";

/** True for a draft (its JSON) waiting for an administrator to approve its owner's account. */
export const isAwaitingModeration = (draft: { status?: unknown } | null | undefined): boolean => draft?.status === AWAITING_MODERATION;

export const AWAITING_MODERATION_LABEL = "Awaiting moderation";

export function AwaitingModerationNotice() {
  return (
    <p class="notice" role="status" id="moderation-status">
      <strong>{AWAITING_MODERATION_LABEL}.</strong> Your account is new: an administrator checks its first publication. This upload is published as soon as your account is
      approved; until then it is a draft only you see, and you may still edit it.
    </p>
  );
}
