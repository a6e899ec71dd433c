// Creating requests and moving them through the status machine: every transition checked (state,
// then party), written with its log event, the optional comment and the type's hook in one
// transaction, and notified after commit. The daily expiry runs through the same path.
import { requireUser, systemActor, type Actor } from "../core/actor";
import { badRequest, forbidden, validationError, type FieldError } from "../core/errors";
import { newUuid } from "../core/ids";
import { DAY_MS, formatIsoTime } from "../core/time";
import type { Db } from "../db/port";
import type { RequestsContext } from "./context";
import { allowedIn, TRANSITIONS } from "./machine";
import type { CommentInput } from "./model";
import type { Notify } from "./notify";
import { actsFor, canRunAction, type Roles } from "./policy";
import { isExpired } from "./present";
import * as store from "./store";
import type { EntityRef, HookOutcome, NotificationEvent, RequestAction, RequestStatus, RequestType } from "./request-type";

/** What another module (members, records, access) asks the engine to create; it has authorised the caller for its own purpose. */
export interface NewRequest {
  type: string;
  /** Default: the calling user. */
  createdBy?: EntityRef;
  receiver: EntityRef;
  topic?: EntityRef | null;
  title?: string;
  description?: string;
  payload?: Record<string, unknown>;
  /** Overrides the type's expiry (ms); null: never. */
  expiresAt?: number | null;
  /** Create and submit at once (InvenioRDM's "create-and-submit"): the request starts open. */
  submit?: boolean;
  /** A comment written with the submission. */
  comment?: CommentInput | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** A written transition: the row after it (null: deleted) and what the type's hook returned for the notification. */
interface Transition {
  row: store.RequestRow | null;
  outcome?: HookOutcome;
}

/** Work hooks hand to `afterCommit`, run once their transaction has committed. */
type Later = (() => void | Promise<void>)[];

const NOTIFIED: Partial<Record<RequestAction, NotificationEvent>> = { submit: "submitted", accept: "accepted", decline: "declined", cancel: "cancelled", expire: "expired" };

export function createRequestActions(ctx: RequestsContext, notify: Notify) {
  const { db, clock, users, communities } = ctx.deps;

  /** Work the hooks deferred until their transaction committed; a failure is logged (the change stands). */
  async function runLater(later: Later) {
    for (const work of later) {
      try {
        await work();
      } catch (err) {
        ctx.deps.log?.(`requests: work after commit failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /**
   * Writes one transition (the checks done): the new status, its log event, the comment, the
   * type's hook. Runs inside the caller's transaction (`tx`); returns the new row (null: deleted)
   * and what the hook returned for the action's notification.
   */
  async function applyTransition(
    tx: Db,
    actor: Actor,
    type: RequestType,
    row: store.RequestRow,
    action: RequestAction,
    comment: CommentInput | null,
    now: number,
    later: Later,
    input: Record<string, unknown> = {},
  ): Promise<Transition> {
    const to = TRANSITIONS[action].to;
    if (to === null) {
      await store.deleteRequest(tx, row.id);
      return { row: null };
    }
    const set: Partial<store.NewRequestRow> = { status: to };
    // The expiry clock starts when the request reaches its receiver (a draft does not expire).
    if (to === "submitted" && row.expiresAt === null && type.expiresInDays) set.expiresAt = now + type.expiresInDays * DAY_MS;
    const updated = await store.updateRequest(tx, row.id, set, now);
    // The system submits only on behalf of the creator (a guest's confirmed request): the submission and its message are theirs.
    const author = actor.kind === "system" && action === "submit" ? { createdByKind: row.createdByKind, createdById: row.createdById } : ctx.authorOf(actor);
    await store.insertEvent(tx, { id: newUuid(), requestId: row.id, type: "L", ...author, payload: { event: to }, created: now, updated: now });
    if (comment) await store.insertEvent(tx, { id: newUuid(), requestId: row.id, type: "C", ...author, payload: { ...comment }, created: now, updated: now });
    const outcome = await type.on?.[action]?.({ request: store.viewOf(updated), actor, now, afterCommit: (work) => later.push(work), input });
    return { row: updated, outcome: outcome ?? undefined };
  }

  /** 400 when the state does not allow it (or the request is overdue), 403 when the caller may not. */
  function checkTransition(actor: Actor, roles: Roles, type: RequestType, row: store.RequestRow, action: RequestAction, now: number) {
    if (!allowedIn(action, row.status as RequestStatus)) {
      throw badRequest(
        `The action '${action}' is not possible on a request in the state '${row.status}'${TRANSITIONS[action].from.length ? ` (only in: ${TRANSITIONS[action].from.join(", ")})` : ""}.`,
      );
    }
    if (action !== "expire" && isExpired(row, now)) {
      throw badRequest(`The request expired on ${formatIsoTime(row.expiresAt!)}: the action '${action}' is no longer possible in the state '${row.status}'.`);
    }
    if (!canRunAction(type, action, actor, roles, store.viewOf(row))) throw forbidden();
  }

  /** Runs the action on a request the caller can read; returns the row after it (null: deleted). `input`: the action body's payload, for the type's hook. */
  async function runTransition(
    actor: Actor,
    id: string,
    action: RequestAction,
    comment: CommentInput | null,
    revision?: (current: number) => void,
    input: Record<string, unknown> = {},
  ) {
    const { row: seen, roles, type } = await ctx.loadRequest(actor, id);
    const now = clock.now();
    const later: Later = [];
    const { row: result, outcome } = await db.write(async (tx): Promise<Transition> => {
      // Checked again on the row inside the transaction: another action may have run meanwhile.
      const row = (await store.findRequest(tx, seen.id)) ?? seen;
      revision?.(row.revisionId);
      checkTransition(actor, roles, type, row, action, now);
      return applyTransition(tx, actor, type, row, action, comment, now, later, input);
    });
    await runLater(later);
    const event = NOTIFIED[action];
    if (result && event) await notify(event, result, actor, comment?.content, outcome);
    return { row: result, roles };
  }

  /** A party reference checked against the type and made canonical (a community slug becomes its id). */
  async function checkRef(field: string, ref: EntityRef | null | undefined, allowed: readonly string[] | null, errors: FieldError[]): Promise<EntityRef | null> {
    if (!ref) {
      if (allowed && field !== "topic") errors.push({ field, messages: ["Missing data for required field."] });
      return null;
    }
    if (!allowed || !allowed.includes(ref.kind)) {
      errors.push({ field, messages: [allowed?.length ? `Must be one of the kinds: ${allowed.join(", ")}.` : "This request type takes none."] });
      return null;
    }
    const id = String(ref.id).trim();
    if (ref.kind === "community") {
      const found = await communities.find(id);
      if (!found) errors.push({ field, messages: [`No community '${id}'.`] });
      return found ? { kind: "community", id: found.id } : null;
    }
    if (ref.kind === "user" && (await users.emailOf(id)) === null) errors.push({ field, messages: [`No user '${id}'.`] });
    if (ref.kind === "email" && !EMAIL.test(id)) errors.push({ field, messages: ["Not a valid e-mail address."] });
    return { kind: ref.kind, id };
  }

  return {
    applyTransition,
    runTransition,

    /** Creates a request (optionally submitted at once); the caller must be, or act for, its creator. */
    async createRequest(actor: Actor, input: NewRequest) {
      requireUser(actor);
      const type = ctx.types.get(input.type);
      if (!type) throw validationError([{ field: "type", messages: [`Unknown request type '${input.type}'.`] }]);
      const errors: FieldError[] = [];
      const own: EntityRef | undefined = actor.kind === "user" ? { kind: "user", id: String(actor.userId) } : undefined;
      // One after the other: the field errors keep their order.
      const createdBy = await checkRef("created_by", input.createdBy ?? own, type.entities.creator, errors);
      const receiver = await checkRef("receiver", input.receiver, type.entities.receiver, errors);
      const topic = type.entities.topic || input.topic ? await checkRef("topic", input.topic, type.entities.topic, errors) : null;
      if (errors.length) throw validationError(errors);
      const roles = await ctx.rolesOf(actor);
      if (actor.kind !== "system" && !actsFor(actor, roles, createdBy!)) throw forbidden();
      const now = clock.now();
      const later: Later = [];
      const { row, outcome } = await db.write(async (tx): Promise<Transition> => {
        const draft = {
          id: newUuid(),
          number: await store.nextNumber(tx),
          type: type.id,
          title: input.title?.trim() ?? "",
          description: input.description?.trim() ?? "",
          status: "created",
          createdByKind: createdBy!.kind,
          createdById: createdBy!.id,
          receiverKind: receiver!.kind,
          receiverId: receiver!.id,
          topicKind: topic?.kind ?? null,
          topicId: topic?.id ?? null,
          payload: input.payload ?? {},
          expiresAt: input.expiresAt ?? null,
          created: now,
          updated: now,
        };
        const defaults = type.defaults?.(store.viewOf({ ...draft, revisionId: 1 })) ?? {};
        const created = await store.insertRequest(tx, {
          ...draft,
          title: draft.title || defaults.title || "",
          description: draft.description || defaults.description || "",
        });
        return input.submit ? applyTransition(tx, actor, type, created, "submit", input.comment ?? null, now, later) : { row: created };
      });
      await runLater(later);
      if (input.submit) await notify("submitted", row!, actor, input.comment?.content, outcome);
      return ctx.present(actor, roles, row!);
    },

    /**
     * Inside the transaction that deletes a community (communities' onDelete hook): its drafts go,
     * its open requests are cancelled by the system. No mail: the community is going away.
     */
    async closeCommunityRequests(communityId: string, now: number) {
      let closed = 0;
      // Cancelling and deleting run no hooks that defer work; were one to, it runs at once.
      const later: Later = [];
      // `db` inside the caller's transaction is that transaction (the same asynchronous flow).
      for (const row of await store.listUnfinishedOfCommunity(db, communityId)) {
        await applyTransition(db, systemActor, ctx.typeOf(row.type), row, row.status === "created" ? "delete" : "cancel", null, now, later);
        closed++;
      }
      await runLater(later);
      return closed;
    },

    /**
     * Inside the transaction that blocks a user: the requests they opened are cancelled by the
     * system, their drafts deleted; the number closed. The types' work after commit goes to
     * `afterCommit` (the caller runs it once its transaction has committed). No mail, as for a
     * deleted community's requests: the account is being shut.
     */
    async closeUserRequests(userId: number, now: number, afterCommit: (work: () => Promise<void>) => void) {
      let closed = 0;
      const later: Later = [];
      for (const row of await store.listUnfinishedOfCreator(db, userId)) {
        await applyTransition(db, systemActor, ctx.typeOf(row.type), row, row.status === "created" ? "delete" : "cancel", null, now, later);
        closed++;
      }
      afterCommit(() => runLater(later));
      return closed;
    },

    /**
     * Inside the caller's transaction: runs `action` on the request as `actor`, for the module that
     * owns the type and has authorised it (moderation's approve and block resolve a user's open
     * request). The status machine is checked (400 otherwise), not the parties; the type's hook
     * runs; its after-commit work and the notification go to `afterCommit`.
     */
    async runWithin(actor: Actor, id: string, action: RequestAction, now: number, afterCommit: (work: () => Promise<void>) => void) {
      const row = await store.findRequest(db, id);
      if (!row) throw badRequest(`No request with id '${id}'.`);
      if (!allowedIn(action, row.status as RequestStatus)) throw badRequest(`The action '${action}' is not possible on a request in the state '${row.status}'.`);
      const later: Later = [];
      const { row: result, outcome } = await applyTransition(db, actor, ctx.typeOf(row.type), row, action, null, now, later);
      const event = NOTIFIED[action];
      afterCommit(async () => {
        await runLater(later);
        if (result && event) await notify(event, result, actor, undefined, outcome);
      });
    },

    /** The daily job: expires every open request past its expiry (idempotent: a second run finds none). */
    async expireOverdue() {
      let expired = 0;
      const failed = new Set<string>();
      for (;;) {
        const batch = (await store.listOverdue(db, clock.now(), 200 + failed.size)).filter((r) => !failed.has(r.id));
        if (batch.length === 0) return { expired, failed: failed.size };
        for (const seen of batch) {
          const now = clock.now();
          try {
            const later: Later = [];
            const { row, outcome } = await db.write(async (tx): Promise<Transition> => {
              const row = await store.findRequest(tx, seen.id);
              if (!row || row.status !== "submitted" || row.expiresAt === null || row.expiresAt > now) return { row: null };
              return applyTransition(tx, systemActor, ctx.typeOf(row.type), row, "expire", null, now, later);
            });
            await runLater(later);
            if (row) {
              expired++;
              await notify("expired", row, systemActor, undefined, outcome);
            }
          } catch (err) {
            // A type's hook refused: the request stays open and is tried again tomorrow; the others go on.
            failed.add(seen.id);
            ctx.deps.log?.(`requests: expiring ${seen.id} failed: ${err instanceof Error ? err.message : String(err)}`);
          }
        }
      }
    },
  };
}

export type RequestActions = ReturnType<typeof createRequestActions>;
