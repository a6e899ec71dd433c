// Grants of a record to users and groups: `/api/records/{id}/access/grants[/{index}]` and the
// subject forms `/access/users[/{user_id}]` and `/access/groups[/{group_id}]`. A grant's id is its
// position among the parent's grants; all of it needs the caller to manage the record.
import type { Actor } from "../core/actor";
import { badRequest, notFound } from "../core/errors";
import { writeTransaction } from "../db/sqlite/connection";
import type { SharingTarget } from "../records/sharing";
import type { AccessContext } from "./context";
import type { GrantFields, GrantInput, SubjectType } from "./model";
import { hitsOf, presentGrant, type GrantJson } from "./present";
import * as store from "./store";
import { readGrantsBody, readGrantUpdate } from "./validate";

const NO_GRANT = "No grant found with the given ID.";
const NO_SUBJECT_GRANT: Record<SubjectType, string> = { user: "No grant found by given user id.", role: "No grant found by given group id." };
export const UNKNOWN_SUBJECT = "Could not find the specified subject.";

export function createGrantOperations(c: AccessContext) {
  const { db, clock, sharing } = c;

  /** The stored subject id of a user or group that exists; 400 otherwise (`field` names it in `errors`). */
  function resolveSubject(subject: GrantInput["subject"], field: string): { id: string; email: string | null } {
    if (subject.type === "user") {
      const user = /^\d{1,15}$/.test(subject.id) ? store.findActiveUser(db, Number(subject.id)) : null;
      if (user) return { id: String(user.id), email: user.email };
    } else {
      const group = store.findGroup(db, subject.id);
      if (group) return { id: group.id, email: null };
    }
    throw badRequest(UNKNOWN_SUBJECT, [{ field, messages: [UNKNOWN_SUBJECT] }]);
  }

  /** The parent's grant at `index` (the URL's grant id) and its row; 404 when there is none. */
  function grantAt(target: SharingTarget, index: string) {
    const grants = store.listGrants(db, target.parentId);
    const i = /^\d{1,6}$/.test(index) ? Number(index) : -1;
    if (!grants[i]) throw notFound(NO_GRANT);
    return { row: grants[i]!, index: i };
  }

  /** The subject's grant on the parent; 404 when it has none. */
  function grantOf(target: SharingTarget, type: SubjectType, subjectId: string) {
    const grants = store.listGrants(db, target.parentId);
    const key = type === "role" ? (store.findGroup(db, subjectId)?.id ?? subjectId) : subjectId;
    const index = grants.findIndex((g) => g.subjectType === type && g.subjectId === key);
    if (index < 0) throw notFound(NO_SUBJECT_GRANT[type]);
    return { row: grants[index]!, index };
  }

  const jsonAt = (target: SharingTarget, id: number) => {
    const grants = store.listGrants(db, target.parentId);
    const index = grants.findIndex((g) => g.id === id);
    return presentGrant(grants[index]!, index);
  };

  /** Writes the changed fields of a grant; returns it as it is now. */
  function update(target: SharingTarget, row: store.GrantRow, fields: GrantFields & { subject?: GrantInput["subject"] }): GrantJson {
    if (fields.subject && (fields.subject.type !== row.subjectType || resolveSubject(fields.subject, "subject.id").id !== row.subjectId)) {
      throw badRequest("The subject of a grant cannot be changed: delete the grant and create another.");
    }
    const { permission, message, expiresAt } = fields;
    store.updateGrant(db, row.id, {
      updated: clock.now(),
      ...(permission ? { permission } : {}),
      ...(message !== undefined ? { message } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    });
    return jsonAt(target, row.id);
  }

  /** Tells a user newly granted access, when the grant asks for it (`notify`). */
  function notify(actor: Actor, target: SharingTarget, grant: GrantInput, email: string | null) {
    if (!grant.notify || !email || !c.queueMail) return;
    const note = grant.message ? `\n\nMessage: ${grant.message}` : "";
    c.queueMail({
      to: email,
      subject: `You have been granted access to "${target.title}"`,
      body: `You have been granted ${grant.permission} access to the record "${target.title}"${actor.kind === "user" ? ` by user ${actor.userId}` : ""}.${note}\n\n${sharing.htmlUrl(target)}`,
      topic: `record:${target.recordId}`,
    });
  }

  const originOf = (actor: Actor) => (actor.kind === "user" ? `api:${actor.userId}` : "system");

  return {
    /** The grants (of one subject type when `type` is given) as InvenioRDM lists them. */
    listGrants(actor: Actor, id: string, type?: SubjectType) {
      const target = sharing.target(actor, id, "manage");
      const all = store.listGrants(db, target.parentId).map(presentGrant);
      return hitsOf(type ? all.filter((g) => g.subject.type === type) : all);
    },

    /** Creates 1 to 100 grants, all or none; 400 for an unknown subject or one that has a grant already. */
    createGrants(actor: Actor, id: string, body: unknown) {
      const target = sharing.target(actor, id, "manage");
      const grants = readGrantsBody(body, clock.now());
      const resolved = grants.map((g, i) => resolveSubject(g.subject, `grants.${i}.subject.id`));
      const now = clock.now();
      const ids = writeTransaction(db, () =>
        grants.map((grant, i) => {
          const subjectId = resolved[i]!.id;
          if (store.findSubjectGrant(db, target.parentId, grant.subject.type, subjectId)) {
            throw badRequest("Grant for the specified subject already exists.", [
              { field: `grants.${i}.subject`, messages: ["This subject has a grant already: update it instead."] },
            ]);
          }
          const row = store.insertGrant(db, {
            parentId: target.parentId,
            subjectType: grant.subject.type,
            subjectId,
            permission: grant.permission,
            origin: originOf(actor),
            message: grant.message ?? null,
            expiresAt: grant.expiresAt ?? null,
            created: now,
            updated: now,
          });
          notify(actor, target, grant, resolved[i]!.email);
          return row.id;
        }),
      );
      const all = store.listGrants(db, target.parentId);
      return hitsOf(all.flatMap((row, index) => (ids.includes(row.id) ? [presentGrant(row, index)] : [])));
    },

    readGrant(actor: Actor, id: string, grantId: string) {
      const { row, index } = grantAt(sharing.target(actor, id, "manage"), grantId);
      return presentGrant(row, index);
    },

    /** PUT (`partial` false) or PATCH a grant by its id; its subject stays. */
    updateGrant(actor: Actor, id: string, grantId: string, body: unknown, partial: boolean) {
      const target = sharing.target(actor, id, "manage");
      const { row } = grantAt(target, grantId);
      return update(target, row, readGrantUpdate(body, clock.now(), partial));
    },

    deleteGrant(actor: Actor, id: string, grantId: string) {
      const { row } = grantAt(sharing.target(actor, id, "manage"), grantId);
      store.deleteGrant(db, row.id);
    },

    readSubjectGrant(actor: Actor, id: string, type: SubjectType, subjectId: string) {
      const { row, index } = grantOf(sharing.target(actor, id, "manage"), type, subjectId);
      return presentGrant(row, index);
    },

    /** PATCH `{permission, expires_at?, message?}` of a user's or group's grant. */
    updateSubjectGrant(actor: Actor, id: string, type: SubjectType, subjectId: string, body: unknown) {
      const target = sharing.target(actor, id, "manage");
      const { row } = grantOf(target, type, subjectId);
      return update(target, row, readGrantUpdate(body, clock.now(), true));
    },

    deleteSubjectGrant(actor: Actor, id: string, type: SubjectType, subjectId: string) {
      const { row } = grantOf(sharing.target(actor, id, "manage"), type, subjectId);
      store.deleteGrant(db, row.id);
    },
  };
}
