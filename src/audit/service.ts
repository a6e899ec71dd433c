// The administrators' audit log: every administrative action recorded, whichever way it came (the
// pages, the REST API, the CLI), and searched by administrators only. Services that act for an
// administrator call record() in the same transaction as the change, so an action and its entry
// are stored together or not at all.
import { requireAdmin, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { parsePage } from "../core/paging";
import type { Db } from "../db/port";
import type { AuditEntry, AuditInput, AuditQuery } from "./model";
import * as store from "./store";

export type AuditService = ReturnType<typeof createAuditService>;

const LIMITS = { defaultSize: 25, maxSize: 100, maxWindow: 10_000 };

export interface AuditDeps extends Deps {
  /** The e-mail of a user (the entry keeps it: the account may be deleted later). */
  emailOf(userId: number): Promise<string | null>;
}

export function createAuditService(deps: AuditDeps) {
  const { db, clock } = deps;

  /** Who the entry names: the administrator's address at the time, or the system for the CLI and jobs. */
  async function actorOf(actor: Actor): Promise<{ actorId: number | null; actorLabel: string }> {
    if (actor.kind !== "user") return { actorId: null, actorLabel: actor.kind === "system" ? "system" : "anonymous" };
    return { actorId: actor.userId, actorLabel: (await deps.emailOf(actor.userId)) ?? `user ${actor.userId}` };
  }

  return {
    /** Records an action `actor` took; `tx`: the transaction the change is written in (default: on its own). */
    async record(actor: Actor, input: AuditInput, tx: Db = db): Promise<void> {
      await store.insertEntry(tx, {
        at: clock.now(),
        ...(await actorOf(actor)),
        action: input.action,
        targetType: input.targetType,
        targetId: String(input.targetId),
        details: input.details ?? {},
        address: input.address ?? null,
        via: input.via,
      });
    },

    /** The log, newest first, filtered and paged; administrators only. */
    async search(actor: Actor, query: AuditQuery): Promise<{ entries: AuditEntry[]; total: number; page: number; size: number }> {
      requireAdmin(actor);
      const page = parsePage(query, LIMITS);
      const { rows, total } = await store.searchEntries(db, query, page.size, page.offset);
      return { entries: rows, total, page: page.page, size: page.size };
    },
  };
}
