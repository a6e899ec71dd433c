// The moderation module's request type (app.ts hands it to the requests engine): InvenioRDM's
// user-moderation. Its topic is the account; accepting approves it (userAdmin.approve: verified,
// audited) and publishes the drafts it held; declining blocks it (userAdmin.block, which with
// moderation on also tombstones what it published). userAdmin's approve and block resolve the
// open request through the same hooks, so each effect is written in one place.
import type { Actor } from "../core/actor";
import { badRequest } from "../core/errors";
import type { HookContext, RequestType } from "../requests/request-type";
import { heldDrafts, USER_MODERATION } from "./model";
import { canModerate } from "./policy";

export interface ModerationTypeDeps {
  /** The account's verification and block (users service); null when there is none. */
  findUser(id: number): Promise<{ verifiedAt: number | null; blockedAt: number | null } | null>;
  /** userAdmin.approve / block as the request's actor, joining the engine's transaction (audited there). */
  approve(actor: Actor, userId: number): Promise<unknown>;
  block(actor: Actor, userId: number): Promise<unknown>;
  /** Publishes a held draft in the transaction (records curation): the work after commit, or null when it is gone or no longer publishable. */
  publishHeld(draftId: string, now: number): Promise<(() => void) | null>;
}

/** The account a request is about; 400 when it names none. */
function topicUser({ request }: HookContext): number {
  if (request.topic?.kind !== "user" || !/^\d{1,15}$/.test(request.topic.id)) throw badRequest("This moderation request names no account.");
  return Number(request.topic.id);
}

export function createUserModerationType(deps: ModerationTypeDeps): RequestType {
  async function accept(ctx: HookContext) {
    const userId = topicUser(ctx);
    const user = await deps.findUser(userId);
    if (!user) throw badRequest(`The account ${userId} no longer exists.`);
    // Verified already: userAdmin.approve is what is accepting this request.
    if (user.verifiedAt === null) await deps.approve(ctx.actor, userId);
    let published = 0;
    for (const draftId of heldDrafts(ctx.request.payload)) {
      const work = await deps.publishHeld(draftId, ctx.now);
      if (work) {
        ctx.afterCommit(work);
        published++;
      }
    }
    return { published };
  }

  async function decline(ctx: HookContext) {
    const userId = topicUser(ctx);
    const user = await deps.findUser(userId);
    // Blocked already: userAdmin.block is what is declining this request. The held drafts stay unpublished.
    if (user && user.blockedAt === null) await deps.block(ctx.actor, userId);
  }

  return {
    id: USER_MODERATION,
    // The account asks (its publication did), so it reads the request and its timeline and may
    // comment; the administrators decide. Nobody cancels: blocking or approving closes it.
    entities: { creator: ["user"], receiver: ["group"], topic: ["user"] },
    can: {
      accept: (p) => canModerate(p.actor),
      decline: (p) => canModerate(p.actor),
    },
    on: { accept, decline },
    expiresInDays: null,
    defaults: () => ({ title: "New account awaiting moderation" }),
    notification(n) {
      if (n.event === "submitted") {
        return {
          subject: `[${n.siteName}] A new account awaits moderation`,
          body: `A new account published for the first time: its upload waits until an administrator approves the account (publishing it) or blocks it.\n\nSee the request: ${n.url}\n`,
        };
      }
      if (n.event === "accepted") {
        return {
          subject: `[${n.siteName}] Your account was approved`,
          body: `An administrator approved your account: your uploads are published, and your next ones are published at once.\n\nSee the request: ${n.url}\n`,
        };
      }
      // Nothing is mailed to a blocked account.
      return n.event === "declined" ? null : undefined;
    },
  };
}
