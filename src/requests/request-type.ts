// The request-type interface: what one kind of request (an invitation, a submission, an access
// request) says about itself. The engine owns rows, states, timeline and mail; a type only adds
// rules and hooks. The module a type belongs to builds it from the writers it needs (members/,
// curation/, access-requests/ request-types.ts); app.ts hands the list to the engine.
import type { Role } from "../communities/roles";
import type { Actor } from "../core/actor";

/** Kinds of the one-key entity references (`{user: "3"}`, `{community: "<uuid>"}`, ...). */
export type EntityKind = "user" | "community" | "record" | "email" | "group";

/** A party or topic: `{kind: "user", id: "3"}` is `{"user": "3"}` on the wire. */
export interface EntityRef {
  kind: EntityKind;
  id: string;
}

export type RequestStatus = "created" | "submitted" | "accepted" | "declined" | "cancelled" | "expired";

/** The actions of the status machine (InvenioRDM's names); `delete` exists only in `created`. */
export type RequestAction = "submit" | "accept" | "decline" | "cancel" | "expire" | "delete";

/** What the engine tells mail about: the transitions a party hears of, and comments. */
export type NotificationEvent = "submitted" | "accepted" | "declined" | "cancelled" | "expired" | "commented";

/** A request as types see it (times in ms since the epoch). */
export interface RequestView {
  id: string;
  /** The human number, "1", "2"... */
  number: string;
  type: string;
  title: string;
  description: string;
  status: RequestStatus;
  createdBy: EntityRef;
  receiver: EntityRef;
  topic: EntityRef | null;
  /** What the type keeps beside the common fields (e.g. the role an invitation offers). */
  payload: Record<string, unknown>;
  expiresAt: number | null;
  created: number;
  updated: number;
}

/**
 * Questions about the caller, answered by the engine for one request. A community party is acted
 * for by its members holding at least `atLeast` (default `curator`: curators, managers, owners);
 * a group party by the group's members; an e-mail party (a guest) by nobody signed in.
 */
export interface Parties {
  readonly actor: Actor;
  /** The caller is the creating user, or acts for the creating community or group. */
  isCreator(atLeast?: Role): boolean;
  /** The caller is the receiving user, or acts for the receiving community (by default with the type's `receiverRole`) or group. */
  isReceiver(atLeast?: Role): boolean;
}

/** Handed to a type's hooks. */
export interface HookContext {
  /** The request after the transition (its new status written, not yet committed). */
  request: RequestView;
  /** Who runs the action (the system actor for expiry). */
  actor: Actor;
  now: number;
  /**
   * Runs `work` once the action's transaction has committed (files to remove, jobs to queue); the
   * engine awaits it, and a failure is logged (the change stands).
   */
  afterCommit(work: () => void | Promise<void>): void;
  /**
   * The `payload` object of the action's body (`POST .../actions/{action}`), unchecked: a type
   * reads its own members (an access request's `expires_at`) and refuses bad ones with a 400.
   * Empty for actions without a body and for those run by other modules and jobs.
   */
  input: Record<string, unknown>;
}

/**
 * What a hook hands to the notification of its action (an accepted guest access request: the
 * secret link's token, which exists in clear nowhere else). Kept in memory until the mail is queued.
 */
export type HookOutcome = Readonly<Record<string, unknown>>;

/** Handed to notification texts. */
export interface NotificationContext {
  request: RequestView;
  event: NotificationEvent;
  /** What the action's hook returned, if anything. */
  outcome?: HookOutcome;
  /** Display name of whoever caused the event ("the system" for expiry). */
  actorName: string;
  /** `self_html` of the request. */
  url: string;
  /** The comment's text (tags stripped) for `commented`, and for an action sent with a comment. */
  comment?: string;
  siteName: string;
}

export interface MailText {
  subject: string;
  body: string;
}

/** The usual rights: the creator submits, deletes (a draft) and cancels; the receiver accepts and declines. */
export const CREATOR_ASKS_RECEIVER_DECIDES: RequestType["can"] = {
  submit: (p) => p.isCreator(),
  delete: (p) => p.isCreator(),
  cancel: (p) => p.isCreator(),
  accept: (p) => p.isReceiver(),
  decline: (p) => p.isReceiver(),
};

export interface RequestType {
  /** InvenioRDM's type id, e.g. `community-invitation`; stored in `requests.type`. */
  id: string;
  /** Entity kinds allowed for each role; creation with another kind is a 400. `topic: null`: no topic. */
  entities: { creator: readonly EntityKind[]; receiver: readonly EntityKind[]; topic: readonly EntityKind[] | null };
  /**
   * Who may run each action, asked only when the status machine allows it in the current state
   * (so e.g. `delete` is asked only in `created`). Missing: no party may. The system actor (jobs)
   * may run every action the state allows; administrators are not parties and act like others.
   * The usual: submit, cancel, delete by the creator; accept, decline by the receiver. Editing
   * the title and description follows `submit`.
   */
  can: Partial<Record<RequestAction, (parties: Parties, request: RequestView) => boolean>>;
  /**
   * The least role in a receiving community that decides this type (absent: `curator`). The one
   * owner of that rule: `p.isReceiver()` in `can` defaults to it, and the header's badge counts a
   * community's requests only for those holding it, so the two cannot disagree.
   */
  receiverRole?: Role;
  /**
   * Side effects of an action, run inside the engine's transaction after the status is written
   * (accept adds a member, say), and awaited there: a hook awaits nothing but the database (its
   * other work goes to `afterCommit`). Throwing (or rejecting with) an HttpError refuses the
   * action and rolls back. What it resolves to reaches the action's notification as `outcome`.
   */
  on?: Partial<Record<RequestAction, (ctx: HookContext) => Promise<HookOutcome | void>>>;
  /** Days an open request lives after it is submitted; null or absent: it never expires. */
  expiresInDays?: number | null;
  /** Title and description used when the creator gives none. */
  defaults?(request: RequestView): { title?: string; description?: string };
  /** Mail text per event; the engine's generic text when absent or when it returns undefined. Return null to send nothing for an event. */
  notification?(ctx: NotificationContext): MailText | null | undefined;
}
