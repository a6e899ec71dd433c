// Grants of a record to users and groups: `/api/records/{id}/access/grants[/{index}]` and the
// subject forms `/access/users[/{user_id}]` and `/access/groups[/{group_id}]`. A grant's id is its
// position among the parent's grants; all of it needs the caller to manage the record.
import type { Actor } from "../core/actor";
import { badRequest, notFound } from "../core/errors";
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
  async function resolveSubject(subject: GrantInput["subject"], field: string): Promise<{ id: string; email: string | null }> {
    if (subject.type === "user") {
      const user = /^\d{1,15}$/.test(subject.id) ? await store.findActiveUser(db, Number(subject.id)) : null;
      if (user) return { id: String(user.id), email: user.email };
    } else {
      const group = await store.findGroup(db, subject.id);
      if (group) return { id: group.id, email: null };
    }
    throw badRequest(UNKNOWN_SUBJECT, [{ field, messages: [UNKNOWN_SUBJECT] }]);
  }

  /** The parent's grant at `index` (the URL's grant id) and its row; 404 when there is none. */
  async function grantAt(target: SharingTarget, index: string) {
    const grants = await store.listGrants(db, target.parentId);
    const i = /^\d{1,6}$/.test(index) ? Number(index) : -1;
    if (!grants[i]) throw notFound(NO_GRANT);
    return { row: grants[i]!, index: i };
  }

  /** The subject's grant on the parent; 404 when it has none. */
  async function grantOf(target: SharingTarget, type: SubjectType, subjectId: string) {
    const grants = await store.listGrants(db, target.parentId);
    const key = type === "role" ? ((await store.findGroup(db, subjectId))?.id ?? subjectId) : subjectId;
    const index = grants.findIndex((g) => g.subjectType === type && g.subjectId === key);
    if (index < 0) throw notFound(NO_SUBJECT_GRANT[type]);
    return { row: grants[index]!, index };
  }

  const jsonAt = async (target: SharingTarget, id: number) => {
    const grants = await store.listGrants(db, target.parentId);
    const index = grants.findIndex((g) => g.id === id);
    return presentGrant(grants[index]!, index);
  };

  /** Writes the changed fields of a grant; returns it as it is now. */
  async function update(target: SharingTarget, row: store.GrantRow, fields: GrantFields & { subject?: GrantInput["subject"] }): Promise<GrantJson> {
    if (fields.subject && (fields.subject.type !== row.subjectType || (await resolveSubject(fields.subject, "subject.id")).id !== row.subjectId)) {
      throw badRequest("The subject of a grant cannot be changed: delete the grant and create another.");
    }
    const { permission, message, expiresAt } = fields;
    await store.updateGrant(db, row.id, {
      updated: clock.now(),
      ...(permission ? { permission } : {}),
      ...(message !== undefined ? { message } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    });
    return jsonAt(target, row.id);
  }

  /** Tells a user newly granted access, when the grant asks for it (`notify`). */
  async function notify(actor: Actor, target: SharingTarget, grant: GrantInput, email: string | null) {
    if (!grant.notify || !email || !c.queueMail) return;
    const note = grant.message ? `\n\nMessage: ${grant.message}` : "";
    await c.queueMail({
      to: email,
      subject: `You have been granted access to "${target.title}"`,
      body: `You have been granted ${grant.permission} access to the record "${target.title}"${actor.kind === "user" ? ` by user ${actor.userId}` : ""}.${note}\n\n${sharing.htmlUrl(target)}`,
      topic: `record:${target.recordId}`,
    });
  }

  const originOf = (actor: Actor) => (actor.kind === "user" ? `api:${actor.userId}` : "system");

  return {
    /** The grants (of one subject type when `type` is given) as InvenioRDM lists them. */
    async listGrants(actor: Actor, id: string, type?: SubjectType) {
      const target = await sharing.target(actor, id, "manage");
      const all = (await store.listGrants(db, target.parentId)).map(presentGrant);
      return hitsOf(type ? all.filter((g) => g.subject.type === type) : all);
    },

    /** Creates 1 to 100 grants, all or none; 400 for an unknown subject or one that has a grant already. */
    async createGrants(actor: Actor, id: string, body: unknown) {
      const target = await sharing.target(actor, id, "manage");
      const grants = readGrantsBody(body, clock.now());
      const resolved: { id: string; email: string | null }[] = [];
      // One after the other: the first unknown subject is the one refused.
      for (const [i, g] of grants.entries()) resolved.push(await resolveSubject(g.subject, `grants.${i}.subject.id`));
      const now = clock.now();
      const ids = await db.write(async (tx) => {
        const written: number[] = [];
        for (const [i, grant] of grants.entries()) {
          const subjectId = resolved[i]!.id;
          if (await store.findSubjectGrant(tx, target.parentId, grant.subject.type, subjectId)) {
            throw badRequest("Grant for the specified subject already exists.", [
              { field: `grants.${i}.subject`, messages: ["This subject has a grant already: update it instead."] },
            ]);
          }
          const row = await store.insertGrant(tx, {
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
          // Queued in the transaction: the outbox row goes with the grant, or neither does.
          await notify(actor, target, grant, resolved[i]!.email);
          written.push(row.id);
        }
        return written;
      });
      const all = await store.listGrants(db, target.parentId);
      return hitsOf(all.flatMap((row, index) => (ids.includes(row.id) ? [presentGrant(row, index)] : [])));
    },

    async readGrant(actor: Actor, id: string, grantId: string) {
      const { row, index } = await grantAt(await sharing.target(actor, id, "manage"), grantId);
      return presentGrant(row, index);
    },

    /** PUT (`partial` false) or PATCH a grant by its id; its subject stays. */
    async updateGrant(actor: Actor, id: string, grantId: string, body: unknown, partial: boolean) {
      const target = await sharing.target(actor, id, "manage");
      const { row } = await grantAt(target, grantId);
      return update(target, row, readGrantUpdate(body, clock.now(), partial));
    },

    async deleteGrant(actor: Actor, id: string, grantId: string): Promise<void> {
      const { row } = await grantAt(await sharing.target(actor, id, "manage"), grantId);
      await store.deleteGrant(db, row.id);
    },

    async readSubjectGrant(actor: Actor, id: string, type: SubjectType, subjectId: string) {
      const { row, index } = await grantOf(await sharing.target(actor, id, "manage"), type, subjectId);
      return presentGrant(row, index);
    },

    /** PATCH `{permission, expires_at?, message?}` of a user's or group's grant. */
    async updateSubjectGrant(actor: Actor, id: string, type: SubjectType, subjectId: string, body: unknown) {
      const target = await sharing.target(actor, id, "manage");
      const { row } = await grantOf(target, type, subjectId);
      return update(target, row, readGrantUpdate(body, clock.now(), true));
    },

    async deleteSubjectGrant(actor: Actor, id: string, type: SubjectType, subjectId: string): Promise<void> {
      const { row } = await grantOf(await sharing.target(actor, id, "manage"), type, subjectId);
      await store.deleteGrant(db, row.id);
    },
  };
}
