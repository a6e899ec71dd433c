// HTTP routes of storage quotas (InvenioRDM's record resource: set_record_quota, set_user_quota).
import { Elysia } from "elysia";
import type { AddressOf } from "../core/client-address";
import type { ActorContext } from "../core/http";
import type { QuotasService } from "./service";

const tags = ["Records"];

export const quotasRoutes = (http: ActorContext, quotas: QuotasService, addressOf: AddressOf) =>
  new Elysia({ prefix: "/api/records" })
    .use(http)
    .post("/users/:id/quota", ({ actor, params, body, request, server }) => quotas.setUserQuota(actor, params.id, body, { via: "api", address: addressOf(request, server) }), {
      detail: { summary: "Set a user's storage quota: the most bytes all their drafts' and records' files take together (administrators)", tags },
    })
    .post("/:id/quota", ({ actor, params, body, request, server }) => quotas.setRecordQuota(actor, params.id, body, { via: "api", address: addressOf(request, server) }), {
      detail: { summary: "Set a record's storage quota and largest file (administrators)", tags },
    });
