// Secret links of a record: `/api/records/{id}/access/links[/{link_id}]`. The token is made and
// shown once, on creation; only its hash is stored. All of it needs the caller to manage the record.
import type { Actor } from "../core/actor";
import { notFound } from "../core/errors";
import { newUuid } from "../core/ids";
import type { SharingTarget } from "../records/sharing";
import type { AccessContext } from "./context";
import { hitsOf, presentLink, type LinkJson } from "./present";
import * as store from "./store";
import { readLinkBody } from "./validate";

const NO_LINK = "No secret link found with the given ID.";

export function createLinkOperations(c: AccessContext) {
  const { db, clock, sharing, tokens } = c;

  async function linkOf(target: SharingTarget, linkId: string) {
    const row = linkId.length <= 100 ? await store.findLink(db, target.parentId, linkId) : null;
    if (!row) throw notFound(NO_LINK);
    return row;
  }

  return {
    async listLinks(actor: Actor, id: string) {
      const target = await sharing.target(actor, id, "manage");
      return hitsOf((await store.listLinks(db, target.parentId)).map(presentLink));
    },

    /** A new link; the answer is the only place its token is ever shown. */
    async createLink(actor: Actor, id: string, body: unknown): Promise<LinkJson> {
      const target = await sharing.target(actor, id, "manage");
      const input = readLinkBody(body, clock.now(), false);
      const { token, hash } = await tokens.issue();
      const row = await store.insertLink(db, {
        id: newUuid(),
        parentId: target.parentId,
        permission: input.permission!,
        description: input.description ?? "",
        origin: actor.kind === "user" ? `api:${actor.userId}` : "system",
        tokenHash: hash,
        expiresAt: input.expiresAt ?? null,
        created: clock.now(),
      });
      return { ...presentLink(row), token };
    },

    async readLink(actor: Actor, id: string, linkId: string) {
      return presentLink(await linkOf(await sharing.target(actor, id, "manage"), linkId));
    },

    /** Changes what is given of permission, expiry (null: none) and description. */
    async updateLink(actor: Actor, id: string, linkId: string, body: unknown) {
      const target = await sharing.target(actor, id, "manage");
      const row = await linkOf(target, linkId);
      const { permission, expiresAt, description } = readLinkBody(body, clock.now(), true);
      const fields = { ...(permission ? { permission } : {}), ...(expiresAt !== undefined ? { expiresAt } : {}), ...(description !== undefined ? { description } : {}) };
      if (Object.keys(fields).length) await store.updateLink(db, row.id, fields);
      return presentLink(await linkOf(target, linkId));
    },

    /** Revokes the link: its token opens nothing from now on. */
    async deleteLink(actor: Actor, id: string, linkId: string): Promise<void> {
      const row = await linkOf(await sharing.target(actor, id, "manage"), linkId);
      await store.deleteLink(db, row.id);
    },
  };
}
