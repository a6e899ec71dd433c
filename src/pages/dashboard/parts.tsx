// What the dashboard pages share: their tabs, the pager, names of the parties of a request (as the
// services let the caller see them), and the labels of request types and statuses.
import type { Actor } from "../../core/actor";
import { HttpError } from "../../core/errors";
import type { PagesDeps } from "../context";

type Json = Record<string, any>;

const TABS = [
  ["/me/uploads", "Uploads"],
  ["/me/requests", "Requests"],
  ["/me/communities", "Communities"],
] as const;

export function DashboardNav({ current }: { current: string }) {
  return (
    <nav class="tabs" aria-label="Dashboard">
      {TABS.map(([href, label]) => (
        <a href={href} aria-current={href === current ? "page" : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}

/** Previous/next links of a listing; `href(page)` keeps the listing's other parameters. */
export function Pager({ page, size, total, href }: { page: number; size: number; total: number; href: (page: number) => string }) {
  const last = Math.max(1, Math.ceil(total / size));
  if (last <= 1) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {page > 1 ? <a href={href(page - 1)}>Previous</a> : null}
      <span>
        Page {page} of {last}
      </span>
      {page < last ? <a href={href(page + 1)}>Next</a> : null}
    </nav>
  );
}

/** `?page=` as a number from 1. */
export const pageOf = (query: Record<string, unknown>) => {
  const n = Number(query.page);
  return Number.isInteger(n) && n >= 1 && n <= 1000 ? n : 1;
};

export const REQUEST_TYPES: Record<string, string> = {
  "user-access-request": "Access request",
  "guest-access-request": "Access request (guest)",
  "community-submission": "Review",
  "community-inclusion": "Inclusion",
  "community-invitation": "Invitation",
  "community-membership-request": "Membership request",
};

export const requestType = (type: string) => REQUEST_TYPES[type] ?? type;

/**
 * `{"user": "3"}` as a name: "you", the user's name or the community's title where the caller may
 * read them, else a neutral label; a guest (`{"email": …}`) by the name they gave with `request`.
 */
export async function partyName(deps: PagesDeps, actor: Actor, ref: Json | null | undefined, request?: Json): Promise<string> {
  const [kind, id] = Object.entries(ref ?? {})[0] ?? [];
  if (!kind || id === undefined) return "—";
  const key = String(id);
  if (kind === "user" && actor.kind === "user" && key === String(actor.userId)) return "you";
  try {
    if (kind === "user") {
      const user = (await deps.services.users.readUser(actor, key)) as Json;
      return String(user.profile?.full_name || user.username || `user ${key}`);
    }
    if (kind === "community") {
      const community = (await deps.services.communities.readCommunity(actor, key)) as Json;
      return String(community.metadata?.title ?? community.slug);
    }
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
  }
  if (kind === "email") return guestName(deps, actor, key, request);
  return kind === "community" ? "a community" : `${kind} ${key}`;
}

/** A guest's address with the name they gave (`Ann Lee <ann@example.org>`) when `request` is theirs and carries one. */
async function guestName(deps: PagesDeps, actor: Actor, email: string, request: Json | undefined): Promise<string> {
  const theirs = typeof request?.id === "string" && request.created_by?.email === email;
  const given = theirs ? await deps.services.requests.guestNameOf(actor, request.id) : null;
  return given ? `${given} <${email}>` : email;
}

/** The party of a request that is not the caller: the receiver of what they created, else its creator. */
export async function otherParty(deps: PagesDeps, actor: Actor, request: Json): Promise<string> {
  const creator = request.created_by ?? {};
  const mine = actor.kind === "user" && creator.user === String(actor.userId);
  return mine ? `to ${await partyName(deps, actor, request.receiver)}` : `from ${await partyName(deps, actor, creator, request)}`;
}

export function StatusBadge({ status }: { status: string }) {
  const open = status === "submitted" || status === "created";
  return <span class={`badge ${open ? "open" : ""}`}>{status}</span>;
}

/** `2026-11-22T12:00:00.000000+00:00` as `2026-11-22 12:00 UTC`. */
export const shortTime = (iso: unknown) => (typeof iso === "string" ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "");
