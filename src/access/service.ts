// Sharing a record: its access settings and owner (`PUT /api/records/{id}/access`), grants to
// users and groups (grants.ts) and secret links (links.ts). Everything works on the parent, so it
// applies to every version; everything needs the caller to manage the record.
import type { AuditOrigin } from "../audit/model";
import { isAdmin, type Actor } from "../core/actor";
import { badRequest } from "../core/errors";
import type { AccessContext, AccessDeps } from "./context";
import { createGrantOperations, UNKNOWN_SUBJECT } from "./grants";
import { createLinkOperations } from "./links";
import { readSettingsBody, settingsJson } from "./settings";
import * as store from "./store";

/**
 * The audit log keeps administrators' actions: an owner giving away their own record is theirs to
 * do, an administrator (or the system) moving someone else's is administration.
 */
const isAdministration = (actor: Actor, ownerId: number | null) => isAdmin(actor) && !(actor.kind === "user" && actor.userId === ownerId);

export function createAccessService(deps: AccessDeps) {
  const c: AccessContext = deps;
  const { db, clock, sharing } = c;

  return {
    ...createGrantOperations(c),
    ...createLinkOperations(c),

    /**
     * Sets the settings the body names (the others keep their values) and, with `owned_by`, gives
     * the record (every version and draft) to another user. Returns the record's, or the draft's,
     * JSON as the caller now sees it. An administrator's change of owner is audited as `record.owner`.
     */
    async updateSettings(actor: Actor, id: string, body: unknown, origin: AuditOrigin) {
      const target = await sharing.target(actor, id, "manage");
      const change = readSettingsBody(body);
      const newOwner = change.owner !== undefined && change.owner !== target.ownerId ? change.owner : null;
      if (newOwner !== null && !(await store.findActiveUser(db, newOwner))) throw badRequest(UNKNOWN_SUBJECT, [{ field: "owned_by.user", messages: [UNKNOWN_SUBJECT] }]);
      const now = clock.now();
      await db.write(async (tx) => {
        if (Object.keys(change.settings).length) {
          await store.writeSettings(tx, target.parentId, { ...settingsJson(await store.readSettings(tx, target.parentId)), ...change.settings }, now);
        }
        if (newOwner === null) return;
        await sharing.transferOwnership(target.parentId, newOwner, now);
        if (isAdministration(actor, target.ownerId)) {
          const details = { from: target.ownerId, to: newOwner, parent: target.parentId, draft: target.isDraft };
          await c.audit.record(actor, { action: "record.owner", targetType: "record", targetId: target.recordId, details, ...origin }, tx);
        }
      });
      return sharing.json(actor, target);
    },
  };
}

export type AccessService = ReturnType<typeof createAccessService>;
