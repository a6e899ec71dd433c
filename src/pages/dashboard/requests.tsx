// /me/requests and /me/requests/{id}: the requests the caller created or receives (access requests,
// reviews, invitations, inclusions), and one request with its timeline, a comment form and the
// actions its `links.actions` offers the caller.
import { DataTable } from "../table";
import { sanitizeDescription } from "../../core/html";
import type { PageContext } from "../layout";
import { Layout } from "../layout";
import { DashboardNav, Pager, requestType, shortTime, StatusBadge } from "./parts";

type Json = Record<string, any>;

export interface RequestRowView {
  request: Json;
  /** "from …" or "to …". */
  party: string;
}

const FILTERS = [
  ["open", "Open"],
  ["closed", "Closed"],
  ["all", "All"],
] as const;

/** A listing's state: which requests (open, closed, all), the words searched and the page. */
export interface RequestsListing {
  filter: string;
  q: string;
  page: number;
  size: number;
}

/** The listing's parameters for the requests service (`is_open`, `q`, newest first). */
export function requestsParams(listing: RequestsListing): Record<string, string> {
  const params: Record<string, string> = { sort: "newest", page: String(listing.page), size: String(listing.size) };
  if (listing.filter !== "all") params.is_open = listing.filter === "open" ? "true" : "false";
  if (listing.q) params.q = listing.q;
  return params;
}

/** `?filter=` (open by default) and `?q=` of a listing's URL. */
export function requestsListingOf(query: Record<string, unknown>, page: number, size: number): RequestsListing {
  const filter = typeof query.filter === "string" && ["open", "closed", "all"].includes(query.filter) ? query.filter : "open";
  const q = typeof query.q === "string" ? query.q.trim().slice(0, 200) : "";
  return { filter, q, page, size };
}

const listingHref = (base: string, listing: RequestsListing, change: Partial<RequestsListing>) => {
  const next = { ...listing, ...change };
  return `${base}?${new URLSearchParams({ filter: next.filter, ...(next.q ? { q: next.q } : {}), ...(next.page > 1 ? { page: String(next.page) } : {}) })}`;
};

/**
 * A list of requests with its filters (open, closed, all), a search in titles and descriptions and
 * the pager: the dashboard's requests and a community's curation queue (`base` is the page's path).
 */
export function RequestsList(props: { base: string; label: string; rows: RequestRowView[]; total: number; listing: RequestsListing }) {
  const { base, rows, listing } = props;
  return (
    <>
      <nav class="filters" aria-label="Which requests">
        {FILTERS.map(([value, label]) => (
          <a href={listingHref(base, listing, { filter: value, page: 1 })} aria-current={value === listing.filter ? "page" : undefined}>
            {label}
          </a>
        ))}
      </nav>
      <form class="actions" method="get" action={base} role="search">
        <input type="hidden" name="filter" value={listing.filter} />
        <label class="sr-only" for="requests-q">
          Search {props.label}
        </label>
        <input id="requests-q" name="q" type="search" value={listing.q} placeholder={`Search ${props.label}`} />
        <button type="submit" class="secondary">
          Search
        </button>
      </form>
      {rows.length === 0 ? (
        <p class="muted">{listing.q ? "No requests match this search." : "No requests here."}</p>
      ) : (
        <div class="table-wrap">
          <DataTable caption="Requests" columns={["Request", "Type", "Status", "Party", "Updated"]}>
            {rows.map(({ request, party }) => (
              <tr>
                <td>
                  <a href={`/me/requests/${encodeURIComponent(String(request.id))}`}>{String(request.title || requestType(request.type))}</a>
                </td>
                <td>{requestType(String(request.type))}</td>
                <td>
                  <StatusBadge status={String(request.status)} />
                </td>
                <td>{party}</td>
                <td>{String(request.updated ?? "").slice(0, 10)}</td>
              </tr>
            ))}
          </DataTable>
        </div>
      )}
      <Pager page={listing.page} size={listing.size} total={props.total} href={(p) => listingHref(base, listing, { page: p })} />
    </>
  );
}

export function RequestsPage(props: { ctx: PageContext; rows: RequestRowView[]; total: number; listing: RequestsListing }) {
  return (
    <Layout ctx={props.ctx} title="My requests">
      <div class="dashboard">
        <h1>My dashboard</h1>
        <DashboardNav current="/me/requests" />
        <RequestsList base="/me/requests" label="my requests" rows={props.rows} total={props.total} listing={props.listing} />
      </div>
    </Layout>
  );
}

export interface RequestView {
  request: Json;
  events: Json[];
  creator: string;
  receiver: string;
  /** Names of the events' authors, by `kind:id`. */
  authors: Map<string, string>;
  notice?: { ok: boolean; text: string };
}

const ACTIONS: [action: string, label: string, confirm?: string][] = [
  ["submit", "Submit"],
  ["accept", "Accept"],
  ["decline", "Decline", "Decline this request?"],
  ["cancel", "Cancel request", "Cancel this request?"],
];

const ACCESS_TYPES = new Set(["user-access-request", "guest-access-request"]);

const EVENT_TEXT: Record<string, string> = {
  submitted: "submitted the request",
  accepted: "accepted the request",
  declined: "declined the request",
  cancelled: "cancelled the request",
  expired: "— the request expired",
  comment_deleted: "deleted a comment",
};

const refKey = (ref: Json | null | undefined) => Object.entries(ref ?? {}).map(([k, v]) => `${k}:${String(v)}`)[0] ?? "";

/** Where the request's topic is seen: a draft under review in its preview, a record on its page. */
function TopicLink({ request }: { request: Json }) {
  const recordId = request.topic?.record;
  if (!recordId) return null;
  const id = encodeURIComponent(String(recordId));
  // An accepted review published the draft: the record, never its (gone) draft.
  if (request.type === "community-submission" && request.status !== "accepted") {
    return (
      <>
        <a href={`/records/${id}?preview=1`}>Preview the draft</a> · <a href={`/uploads/${id}`}>Edit the draft</a>
      </>
    );
  }
  return <a href={`/records/${id}`}>{request.type === "community-submission" ? "The published record" : "The record"}</a>;
}

function ActionForms({ ctx, request }: { ctx: PageContext; request: Json }) {
  const allowed = request.links?.actions ?? {};
  const id = encodeURIComponent(String(request.id));
  const shown = ACTIONS.filter(([action]) => allowed[action]);
  if (!shown.length) return null;
  return (
    <section class="card" aria-labelledby="actions-heading">
      <h2 id="actions-heading">Decide</h2>
      {shown.map(([action, label, confirm]) => (
        <form method="post" action={`/me/requests/${id}/actions/${action}`} data-confirm={confirm}>
          <input type="hidden" name="csrf" value={ctx.actor.csrf ?? ""} />
          {action === "accept" && ACCESS_TYPES.has(String(request.type)) ? (
            <>
              <label for="expires-at">Access ends on (optional)</label>
              <input id="expires-at" name="expires_at" type="date" aria-describedby="expires-at-hint" />
              <p class="muted" id="expires-at-hint">
                Empty: the record's default length of access applies.
              </p>
            </>
          ) : null}
          <div class="actions">
            <button type="submit" class={action === "accept" || action === "submit" ? "" : "secondary"}>
              {label}
            </button>
          </div>
        </form>
      ))}
    </section>
  );
}

function Timeline({ view }: { view: RequestView }) {
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      {view.events.length === 0 ? <p class="muted">Nothing yet.</p> : null}
      <ol class="plain timeline">
        {view.events.map((event) => {
          const who = view.authors.get(refKey(event.created_by)) ?? "someone";
          if (event.type === "C") {
            return (
              <li class="card comment">
                <p class="muted">
                  <strong>{who}</strong> commented · {shortTime(event.created)}
                </p>
                <div class="comment-body" dangerouslySetInnerHTML={{ __html: sanitizeDescription(String(event.payload?.content ?? "")) }} />
              </li>
            );
          }
          const what = EVENT_TEXT[String(event.payload?.event)] ?? String(event.payload?.event ?? "changed the request");
          return (
            <li class="event muted">
              {who} {what} · {shortTime(event.created)}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** Titles stay short in tabs and search results (the full title is the page's heading). */
const pageTitle = (text: string) => (text.length > 48 ? `${text.slice(0, 47)}…` : text);

export function RequestPage({ ctx, view }: { ctx: PageContext; view: RequestView }) {
  const { request } = view;
  const id = encodeURIComponent(String(request.id));
  return (
    <Layout ctx={ctx} title={pageTitle(String(request.title || "Request"))}>
      <div class="dashboard">
        <DashboardNav current="/me/requests" />
        <h1>{String(request.title || requestType(request.type))}</h1>
        {view.notice ? (
          <p class={`notice ${view.notice.ok ? "ok" : "error"}`} role={view.notice.ok ? "status" : "alert"}>
            {view.notice.text}
          </p>
        ) : null}
        <dl class="facts">
          <dt>Type</dt>
          <dd>{requestType(String(request.type))}</dd>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={String(request.status)} />
          </dd>
          <dt>From</dt>
          <dd>{view.creator}</dd>
          <dt>To</dt>
          <dd>{view.receiver}</dd>
          <dt>Created</dt>
          <dd>{shortTime(request.created)}</dd>
          {request.expires_at ? (
            <>
              <dt>Expires</dt>
              <dd>{shortTime(request.expires_at)}</dd>
            </>
          ) : null}
          {request.topic?.record ? (
            <>
              <dt>About</dt>
              <dd>
                <TopicLink request={request} />
              </dd>
            </>
          ) : null}
          {request.topic?.user && ctx.actor.kind === "user" && ctx.actor.isAdmin ? (
            <>
              <dt>About</dt>
              <dd>
                {/* A user-moderation request: its account, with the held uploads, Approve and Block. */}
                <a href={`/administration/users/${encodeURIComponent(String(request.topic.user))}`}>The account in the administration</a>
              </dd>
            </>
          ) : null}
        </dl>
        {request.description ? <p>{String(request.description)}</p> : null}
        <ActionForms ctx={ctx} request={request} />
        <Timeline view={view} />
        <form class="card" method="post" action={`/me/requests/${id}/comments`}>
          <input type="hidden" name="csrf" value={ctx.actor.csrf ?? ""} />
          <label for="comment">Add a comment</label>
          <textarea id="comment" name="content" required />
          <div class="actions">
            <button type="submit">Comment</button>
          </div>
        </form>
        <p>
          <a href="/me/requests">All my requests</a>
        </p>
      </div>
    </Layout>
  );
}
