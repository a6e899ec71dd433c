// The status machine of every request (InvenioRDM's invenio-requests): which action leads from
// which status to which, and what "open" means. Types add who may act, never new transitions.
import type { RequestAction, RequestStatus } from "./request-type";

export const REQUEST_ACTIONS: readonly RequestAction[] = ["submit", "accept", "decline", "cancel", "expire", "delete"];
export const REQUEST_STATUSES: readonly RequestStatus[] = ["created", "submitted", "accepted", "declined", "cancelled", "expired"];

/** Per action: the statuses it runs from and the status it leads to (`null`: the request is removed). */
export const TRANSITIONS: Record<RequestAction, { from: readonly RequestStatus[]; to: RequestStatus | null }> = {
  submit: { from: ["created"], to: "submitted" },
  accept: { from: ["submitted"], to: "accepted" },
  decline: { from: ["submitted"], to: "declined" },
  cancel: { from: ["submitted"], to: "cancelled" },
  expire: { from: ["submitted"], to: "expired" },
  delete: { from: ["created"], to: null },
};

/** Waiting for the receiver: only `submitted` (a `created` request is the creator's draft). */
export const isOpen = (status: RequestStatus) => status === "submitted";
export const isClosed = (status: RequestStatus) => status === "accepted" || status === "declined" || status === "cancelled" || status === "expired";

export const isRequestAction = (name: string): name is RequestAction => (REQUEST_ACTIONS as readonly string[]).includes(name);
export const isRequestStatus = (name: string): name is RequestStatus => (REQUEST_STATUSES as readonly string[]).includes(name);

/** True when the machine allows the action in the status (whoever asks). */
export const allowedIn = (action: RequestAction, status: RequestStatus) => TRANSITIONS[action].from.includes(status);

/** The actions run through `POST .../actions/{action}`; `delete` is `DELETE /requests/{id}`. */
export const API_ACTIONS: readonly RequestAction[] = ["submit", "accept", "decline", "cancel", "expire"];
