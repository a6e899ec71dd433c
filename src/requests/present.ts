// Requests and timeline events -> the API's JSON: one-key entity references, absolute links (the
// actions the caller may run now), and the `+00:00` timestamp format.
import type { Links } from "../core/links";
import { formatIsoTime } from "../core/time";
import { isClosed, isOpen } from "./machine";
import type { EventRow, RequestRow } from "./store";
import type { RequestAction, RequestStatus } from "./request-type";

const iso = (ms: number | null) => (ms === null ? null : formatIsoTime(ms));

/** Open past its expiry (the daily job has not run yet) counts as expired already. */
export const isExpired = (row: Pick<RequestRow, "status" | "expiresAt">, now: number) =>
  row.status === "expired" || (isOpen(row.status as RequestStatus) && row.expiresAt !== null && row.expiresAt <= now);

export function presentRequest(row: RequestRow, actions: readonly RequestAction[], links: Links, now: number) {
  const status = row.status as RequestStatus;
  const self = `/requests/${row.id}`;
  return {
    id: row.id,
    number: String(row.number),
    type: row.type,
    title: row.title,
    description: row.description,
    status,
    is_open: isOpen(status),
    is_closed: isClosed(status),
    is_expired: isExpired(row, now),
    expires_at: iso(row.expiresAt),
    created_by: { [row.createdByKind]: row.createdById },
    receiver: { [row.receiverKind]: row.receiverId },
    topic: row.topicKind && row.topicId ? { [row.topicKind]: row.topicId } : null,
    created: formatIsoTime(row.created),
    updated: formatIsoTime(row.updated),
    revision_id: row.revisionId,
    links: {
      self: links.api(self),
      self_html: links.html(self),
      comments: links.api(`${self}/comments`),
      timeline: links.api(`${self}/timeline`),
      actions: Object.fromEntries(actions.map((a) => [a, links.api(`${self}/actions/${a}`)])),
    },
  };
}

export type RequestJson = ReturnType<typeof presentRequest>;

export function presentEvent(row: EventRow, links: Links) {
  return {
    id: row.id,
    type: row.type,
    created_by: { [row.createdByKind]: row.createdById },
    payload: row.payload,
    created: formatIsoTime(row.created),
    updated: formatIsoTime(row.updated),
    revision_id: row.revisionId,
    links: { self: links.api(`/requests/${row.requestId}/comments/${row.id}`) },
  };
}

export type EventJson = ReturnType<typeof presentEvent>;
