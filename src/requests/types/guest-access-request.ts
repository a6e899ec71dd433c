// The guest-access-request type (InvenioRDM's): someone without an account (or asking with
// another address) confirmed their e-mail address and asks the owner of a record for access to
// its restricted files. The owner accepts (a `view` secret link to the parent is made and mailed
// to the guest, once) or declines. The guest, an e-mail party, cannot act; the system may expire
// it. It does not expire by itself. Created by access-requests/service.ts.
import { accessRequestText, handOver } from "../../access-requests/mail";
import { accessExpiry, payloadOf } from "../../access-requests/model";
import { HttpError } from "../../core/errors";
import type { HookContext, RequestType } from "../types";

/** Makes the secret link in the engine's transaction; its token goes to the guest's mail only. */
function accept({ request, now, services, input, afterCommit }: HookContext) {
  if (!services.access) throw new HttpError(503, "Access cannot be granted: the access module is not available.");
  if (request.topic?.kind !== "record" || request.createdBy.kind !== "email") throw new HttpError(400, "This access request names no record or no guest.");
  const payload = payloadOf(request.payload);
  const expiresAt = accessExpiry(input, payload.secret_link_expiration, now);
  const email = payload.email || request.createdBy.id;
  const { token } = services.access.createLink({
    recordId: request.topic.id,
    permission: "view",
    expiresAt,
    description: `Access request by ${payload.full_name ? `${payload.full_name} ` : ""}<${email}>`,
    origin: `request:${request.id}`,
    now,
  });
  afterCommit(() => handOver(request.id, { expiresAt, token }));
}

export const guestAccessRequest: RequestType = {
  id: "guest-access-request",
  entities: { creator: ["email"], receiver: ["user"], topic: ["record"] },
  // An e-mail party is acted for by nobody signed in: only the owner's side has actions.
  can: {
    accept: (p) => p.isReceiver(),
    decline: (p) => p.isReceiver(),
  },
  on: { accept },
  expiresInDays: null,
  defaults: () => ({ title: "Access request" }),
  notification: (n) => accessRequestText(n, "guest"),
};
