// The user-access-request type (InvenioRDM's): a signed-in user asks the owner of a record for
// access to its restricted files. The owner accepts (the user gets a `view` grant on the parent,
// so on every version, until the date the owner gives or the record's default) or declines; the
// user cancels. It does not expire. The service that creates it: access-requests/service.ts.
import { accessRequestText, handOver } from "../../access-requests/mail";
import { accessExpiry, payloadOf } from "../../access-requests/model";
import { HttpError } from "../../core/errors";
import { CREATOR_ASKS_RECEIVER_DECIDES, type HookContext, type RequestType } from "../types";

/** Grants the requester `view` in the engine's transaction; a bad `payload.expires_at` is a 400 and nothing changes. */
function accept({ request, now, services, input, afterCommit }: HookContext) {
  if (!services.access) throw new HttpError(503, "Access cannot be granted: the access module is not available.");
  if (request.topic?.kind !== "record" || request.createdBy.kind !== "user") throw new HttpError(400, "This access request names no record or no user.");
  const expiresAt = accessExpiry(input, payloadOf(request.payload).secret_link_expiration, now);
  services.access.grantUser({ recordId: request.topic.id, userId: request.createdBy.id, permission: "view", expiresAt, origin: `request:${request.id}`, now });
  afterCommit(() => handOver(request.id, { expiresAt }));
}

export const userAccessRequest: RequestType = {
  id: "user-access-request",
  entities: { creator: ["user"], receiver: ["user"], topic: ["record"] },
  can: CREATOR_ASKS_RECEIVER_DECIDES,
  on: { accept },
  expiresInDays: null,
  defaults: () => ({ title: "Access request" }),
  notification: (n) => accessRequestText(n, "user"),
};
