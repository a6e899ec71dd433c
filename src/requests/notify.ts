// Notification mail of requests: who hears of each event (the parties other than whoever caused
// it; a community party through its curators, managers and owners) and the generic text a type
// may replace. Queued after the change has committed; a failure to queue never undoes the change.
import type { Actor } from "../core/actor";
import { stripHtml } from "../core/html";
import type { RequestsContext } from "./context";
import * as store from "./store";
import type { EntityRef, HookOutcome, MailText, NotificationContext, NotificationEvent } from "./request-type";

/** Which side hears of an event: the receiver of what the creator did, the creator of what the receiver did. */
const AUDIENCE: Record<NotificationEvent, ("creator" | "receiver")[]> = {
  submitted: ["receiver"],
  accepted: ["creator"],
  declined: ["creator"],
  cancelled: ["receiver"],
  expired: ["creator", "receiver"],
  commented: ["creator", "receiver"],
};

const VERB: Record<NotificationEvent, string> = {
  submitted: "submitted",
  accepted: "accepted",
  declined: "declined",
  cancelled: "cancelled",
  expired: "expired",
  commented: "commented on",
};

/** The engine's text; types replace it through `notification` (returning undefined keeps it). */
function defaultMailText(n: NotificationContext): MailText {
  const { request, event } = n;
  const name = request.title ? `"${request.title}"` : `#${request.number}`;
  const subject =
    event === "expired"
      ? `[${n.siteName}] Request ${name} expired`
      : event === "commented"
        ? `[${n.siteName}] New comment on request ${name}`
        : `[${n.siteName}] Request ${name} was ${VERB[event]}`;
  const lead =
    event === "expired" ? `The request ${name} (#${request.number}) expired without an answer.` : `${n.actorName} ${VERB[event]} the request ${name} (#${request.number}).`;
  const comment = n.comment ? `\n\n${event === "commented" ? "" : "Comment:\n"}${n.comment}` : "";
  return { subject, body: `${lead}${comment}\n\nSee the request: ${n.url}\n` };
}

export function createNotifier(ctx: RequestsContext) {
  const { deps } = ctx;
  const { users, communities, config, links } = deps;

  async function addressesOf(ref: EntityRef): Promise<string[]> {
    switch (ref.kind) {
      case "user":
        return [await users.emailOf(ref.id)].filter((e): e is string => !!e);
      case "community":
        return communities.curatorEmails(ref.id);
      case "email":
        return [ref.id];
      case "group":
        return (await users.groupEmails?.(ref.id)) ?? [];
      default:
        return [];
    }
  }

  const nameOf = async (actor: Actor) => (actor.kind === "user" ? ((await users.nameOf(String(actor.userId))) ?? `user ${actor.userId}`) : "The system");
  const ownEmail = async (actor: Actor) => (actor.kind === "user" ? (await users.emailOf(String(actor.userId)))?.toLowerCase() : undefined);

  /** Queues the event's mail to its audience (the actor left out). Call after commit. `outcome`: what the action's hook returned. */
  return async function notify(event: NotificationEvent, row: store.RequestRow, actor: Actor, commentHtml?: string, outcome?: HookOutcome): Promise<void> {
    try {
      const request = store.viewOf(row);
      const type = ctx.typeOf(row.type);
      const mailCtx: NotificationContext = {
        request,
        event,
        outcome,
        actorName: await nameOf(actor),
        url: links.html(`/requests/${row.id}`),
        comment: commentHtml ? stripHtml(commentHtml.replace(/<\/(p|div|li|h\d|blockquote|pre)>|<br\s*\/?>/gi, "$&\n")) : undefined,
        siteName: config.THEME_SITENAME,
      };
      const typed = type.notification?.(mailCtx);
      if (typed === null) return;
      const text = typed ?? defaultMailText(mailCtx);
      const own = await ownEmail(actor);
      const seen = new Set<string>();
      for (const side of AUDIENCE[event]) {
        for (const to of await addressesOf(side === "creator" ? request.createdBy : request.receiver)) {
          const key = to.trim().toLowerCase();
          if (!key || key === own || seen.has(key)) continue;
          seen.add(key);
          await deps.queueMail({ to, subject: text.subject, body: text.body, topic: `request:${row.id}` });
        }
      }
    } catch (err) {
      deps.log?.(`requests: notification of ${event} on ${row.id} was not queued: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}

export type Notify = ReturnType<typeof createNotifier>;
