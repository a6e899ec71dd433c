// The access-requests module's request types, built from the access writer (app.ts hands them to
// the requests engine): a signed-in user's and a guest's request for access to a record's
// restricted files. Created by service.ts; neither expires by itself.
import type { AccessWriter } from "../access/writer";
import { badRequest } from "../core/errors";
import { CREATOR_ASKS_RECEIVER_DECIDES, type HookContext, type RequestType } from "../requests/request-type";
import { accessRequestText, type AccessGiven } from "./mail";
import { GUEST_ACCESS_REQUEST, payloadOf, USER_ACCESS_REQUEST } from "./model";
import { accessExpiry } from "./validate";

export interface AccessTypeDeps {
  access: AccessWriter;
}

/**
 * InvenioRDM's user-access-request: the owner accepts (the user gets a `view` grant on the
 * parent, so on every version, until the date the owner gives or the record's default) or
 * declines; the user cancels.
 */
export function createUserAccessRequestType({ access }: AccessTypeDeps): RequestType {
  /** Grants the requester `view` in the engine's transaction; a bad `payload.expires_at` is a 400 and nothing changes. */
  async function accept({ request, now, input }: HookContext): Promise<AccessGiven> {
    if (request.topic?.kind !== "record" || request.createdBy.kind !== "user") throw badRequest("This access request names no record or no user.");
    const expiresAt = accessExpiry(input, payloadOf(request.payload).secret_link_expiration, now);
    await access.grantUser({ recordId: request.topic.id, userId: request.createdBy.id, permission: "view", expiresAt, origin: `request:${request.id}`, now });
    return { expiresAt };
  }

  return {
    id: USER_ACCESS_REQUEST,
    entities: { creator: ["user"], receiver: ["user"], topic: ["record"] },
    can: CREATOR_ASKS_RECEIVER_DECIDES,
    on: { accept },
    expiresInDays: null,
    defaults: () => ({ title: "Access request" }),
    notification: (n) => accessRequestText(n, "user"),
  };
}

/**
 * InvenioRDM's guest-access-request: someone without an account (or asking with another address)
 * confirmed their e-mail address. The owner accepts (a `view` secret link to the parent is made
 * and mailed to the guest, once) or declines. The guest, an e-mail party, cannot act; the system may expire it.
 */
export function createGuestAccessRequestType({ access }: AccessTypeDeps): RequestType {
  /** Makes the secret link in the engine's transaction; its token goes to the guest's mail only (returned for it). */
  async function accept({ request, now, input }: HookContext): Promise<AccessGiven> {
    if (request.topic?.kind !== "record" || request.createdBy.kind !== "email") throw badRequest("This access request names no record or no guest.");
    const payload = payloadOf(request.payload);
    const expiresAt = accessExpiry(input, payload.secret_link_expiration, now);
    const email = payload.email || request.createdBy.id;
    const { token } = await access.createLink({
      recordId: request.topic.id,
      permission: "view",
      expiresAt,
      description: `Access request by ${payload.full_name ? `${payload.full_name} ` : ""}<${email}>`,
      origin: `request:${request.id}`,
      now,
    });
    return { expiresAt, token };
  }

  return {
    id: GUEST_ACCESS_REQUEST,
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
}
