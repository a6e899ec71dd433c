// Who is moderated and who moderates: with ACCOUNTS_MODERATION=first-publish, a publication waits
// while its owner is neither verified nor an administrator, unless an administrator (or the system)
// publishes it; administrators approve and block.
import { isAdmin, type Actor } from "../core/actor";

/** The facts of the draft's owner moderation looks at. */
export interface OwnerFacts {
  isAdmin: boolean;
  verifiedAt: number | null;
}

/** True when publishing must wait for an administrator (`setting`: ACCOUNTS_MODERATION). */
export function mustWait(setting: string, actor: Actor, owner: OwnerFacts | null): boolean {
  if (setting !== "first-publish" || isAdmin(actor) || owner === null) return false;
  return !owner.isAdmin && owner.verifiedAt === null;
}

/** Administrators decide user-moderation requests (the system too, as for every request). */
export const canModerate = (actor: Actor): boolean => actor.kind === "user" && actor.isAdmin;
