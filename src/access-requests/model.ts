// Access requests' wire shapes: the limits of the body of `POST /records/{id}/access/request`
// (InvenioRDM's AccessRequestSchema) and the input validate.ts reads it into, the two request
// types' names and the payload both keep.
export const EMAIL_MAX = 254;
export const FULL_NAME_MAX = 255;
/** The message, after sanitising (it becomes the request's first comment). */
export const MESSAGE_MAX = 10_000;

export interface AccessRequestInput {
  permission: "view";
  /** As typed (trimmed); compared and stored lower-cased. */
  email: string;
  fullName: string;
  /** Sanitised HTML; "" without one. */
  message: string;
  consent: boolean;
}

/** The two request types (request-types.ts), as InvenioRDM names them. */
export const USER_ACCESS_REQUEST = "user-access-request";
export const GUEST_ACCESS_REQUEST = "guest-access-request";

/** What a user- or guest-access-request keeps in its payload (not shown in the request JSON). */
export interface AccessRequestPayload {
  permission: "view";
  email: string;
  full_name: string;
  /** The message as plain HTML; it is also the first comment. */
  message: string;
  consent_to_share_personal_data: "true" | "false";
  /** The record's default expiry when the request was made (days; 0: none), counted from acceptance. */
  secret_link_expiration: number;
  record_title: string;
  /** The record's page and API URL, for the mail the requester gets on acceptance. */
  record_url: string;
  record_api_url: string;
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** The payload as the request types read it back (tolerant: a field the row lacks reads as empty). */
export function payloadOf(payload: Record<string, unknown>): AccessRequestPayload {
  const days = payload.secret_link_expiration;
  return {
    permission: "view",
    email: str(payload.email),
    full_name: str(payload.full_name),
    message: str(payload.message),
    consent_to_share_personal_data: payload.consent_to_share_personal_data === "true" ? "true" : "false",
    secret_link_expiration: typeof days === "number" && Number.isInteger(days) && days > 0 ? days : 0,
    record_title: str(payload.record_title),
    record_url: str(payload.record_url),
    record_api_url: str(payload.record_api_url),
  };
}
