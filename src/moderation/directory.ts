// The narrow view of moderation records need before the engine exists (whether a draft waits for
// an administrator, which its JSON shows): built from the requests directory alone.
import type { RequestDirectory } from "../requests/directory";
import { heldDrafts, USER_MODERATION } from "./model";

export interface ModerationDirectory {
  /** True while the draft is held in its owner's open user-moderation request. */
  isHeld(draft: { id: string; ownerId: number | null }): Promise<boolean>;
}

export function createModerationDirectory(requests: Pick<RequestDirectory, "openAbout">): ModerationDirectory {
  return {
    async isHeld(draft) {
      if (draft.ownerId === null) return false;
      const open = await requests.openAbout(USER_MODERATION, { kind: "user", id: String(draft.ownerId) });
      return open.some((r) => heldDrafts(r.payload).includes(draft.id));
    },
  };
}
