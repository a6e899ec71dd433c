// HTTP routes of sharing a record: access settings and owner, grants (by index, by user, by
// group) and secret links, under `/api/records/{id}/access`. PUT on a link is a 405 (use PATCH).
import { Elysia } from "elysia";
import type { AddressOf } from "../core/client-address";
import type { ActorContext } from "../core/http";
import type { AccessService } from "./service";

const tags = ["Record access"];

/** Answers 204 with no body after `work`. */
const noContent = async (set: { status?: number | string }, work: () => Promise<void>) => {
  await work();
  set.status = 204;
  return null;
};

export const accessRoutes = (http: ActorContext, access: AccessService, addressOf: AddressOf) =>
  new Elysia({ prefix: "/api/records/:id/access" })
    .use(http)
    .put("", ({ actor, params, body, request, server }) => access.updateSettings(actor, params.id, body, { via: "api", address: addressOf(request, server) }), {
      detail: { summary: "Set the record's access settings and, with owned_by, transfer it to another user", tags },
    })
    .get("/grants", ({ actor, params }) => access.listGrants(actor, params.id), { detail: { summary: "The record's grants", tags } })
    .post(
      "/grants",
      ({ actor, params, body, set }) => {
        set.status = 201;
        return access.createGrants(actor, params.id, body);
      },
      { detail: { summary: "Grant users or groups access to the record (1 to 100)", tags } },
    )
    .get("/grants/:grant_id", ({ actor, params }) => access.readGrant(actor, params.id, params.grant_id), { detail: { summary: "A grant by its index", tags } })
    .put("/grants/:grant_id", ({ actor, params, body }) => access.updateGrant(actor, params.id, params.grant_id, body, false), {
      detail: { summary: "Replace a grant (its subject stays)", tags },
    })
    .patch("/grants/:grant_id", ({ actor, params, body }) => access.updateGrant(actor, params.id, params.grant_id, body, true), {
      detail: { summary: "Change a grant's permission, message or expiry", tags },
    })
    .delete("/grants/:grant_id", ({ actor, params, set }) => noContent(set, () => access.deleteGrant(actor, params.id, params.grant_id)), {
      detail: { summary: "Remove a grant", tags },
    })
    .get("/users", ({ actor, params }) => access.listGrants(actor, params.id, "user"), { detail: { summary: "The record's grants to users", tags } })
    .get("/users/:subject", ({ actor, params }) => access.readSubjectGrant(actor, params.id, "user", params.subject), { detail: { summary: "A user's grant", tags } })
    .patch("/users/:subject", ({ actor, params, body }) => access.updateSubjectGrant(actor, params.id, "user", params.subject, body), {
      detail: { summary: "Change a user's grant", tags },
    })
    .delete("/users/:subject", ({ actor, params, set }) => noContent(set, () => access.deleteSubjectGrant(actor, params.id, "user", params.subject)), {
      detail: { summary: "Remove a user's grant", tags },
    })
    .get("/groups", ({ actor, params }) => access.listGrants(actor, params.id, "role"), { detail: { summary: "The record's grants to groups", tags } })
    .get("/groups/:subject", ({ actor, params }) => access.readSubjectGrant(actor, params.id, "role", params.subject), { detail: { summary: "A group's grant", tags } })
    .patch("/groups/:subject", ({ actor, params, body }) => access.updateSubjectGrant(actor, params.id, "role", params.subject, body), {
      detail: { summary: "Change a group's grant", tags },
    })
    .delete("/groups/:subject", ({ actor, params, set }) => noContent(set, () => access.deleteSubjectGrant(actor, params.id, "role", params.subject)), {
      detail: { summary: "Remove a group's grant", tags },
    })
    .get("/links", ({ actor, params }) => access.listLinks(actor, params.id), { detail: { summary: "The record's secret links (without their tokens)", tags } })
    .post(
      "/links",
      ({ actor, params, body, set }) => {
        set.status = 201;
        return access.createLink(actor, params.id, body);
      },
      { detail: { summary: "Create a secret link; its token is shown in this answer only", tags } },
    )
    .get("/links/:link_id", ({ actor, params }) => access.readLink(actor, params.id, params.link_id), { detail: { summary: "A secret link", tags } })
    .patch("/links/:link_id", ({ actor, params, body }) => access.updateLink(actor, params.id, params.link_id, body), {
      detail: { summary: "Change a secret link's permission, expiry or description", tags },
    })
    .delete("/links/:link_id", ({ actor, params, set }) => noContent(set, () => access.deleteLink(actor, params.id, params.link_id)), {
      detail: { summary: "Revoke a secret link", tags },
    });
