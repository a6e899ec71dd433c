// What the Share dialog of a record shows, read through the same services as the REST API's
// `/api/records/{id}/access/*`: null when the caller may not manage the record (the services'
// 401/403 decide it, no rule of the pages' own), else the settings, grants, links and open access requests.
import type { Actor } from "../../core/actor";
import { HttpError } from "../../core/errors";
import type { JsonObject } from "../../core/json";
import type { PagesDeps } from "../context";
import { partyName } from "../dashboard/parts";

type Json = JsonObject;

export interface ShareGrant {
  /** `users` or `groups`: the segment of the subject's endpoint. */
  kind: "users" | "groups";
  subject: string;
  name: string;
  permission: string;
  expires: string | null;
}

export interface ShareLink {
  id: string;
  permission: string;
  expires: string | null;
  created: string;
  description: string;
}

export interface ShareRequest {
  id: string;
  title: string;
  from: string;
  created: string;
}

export interface ShareView {
  recordId: string;
  /** The landing page's absolute URL: a secret link is it with `?token=`. */
  pageUrl: string;
  /** The whole record is restricted: visitors cannot see it to ask for access. */
  recordRestricted: boolean;
  settings: { allowUsers: boolean; allowGuests: boolean; conditions: string; days: number };
  owner: string;
  grants: ShareGrant[];
  links: ShareLink[];
  requests: ShareRequest[];
  /** Mail is off (MAIL_SERVER empty): nobody hears of a grant or a request by mail. */
  mailOff: boolean;
  /** Today (the server's clock), the earliest expiry is the day after. */
  today: string;
}

const ACCESS_REQUEST_TYPES = ["user-access-request", "guest-access-request"];

const refused = (error: unknown) => error instanceof HttpError && (error.status === 401 || error.status === 403);

async function groupName(deps: PagesDeps, actor: Actor, id: string): Promise<string> {
  try {
    return String(((await deps.services.groups.readGroup(actor, id)) as Json).name || id);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return `group ${id}`;
  }
}

/** The open access requests about the record that the caller may read (those sent to its owner). */
async function openRequests(deps: PagesDeps, actor: Actor, id: string): Promise<ShareRequest[]> {
  const found = (await deps.services.recordRequests.searchRecordRequests(actor, id, { is_open: "true", type: ACCESS_REQUEST_TYPES, size: "50" })) as Json;
  const hits = (found.hits?.hits ?? []) as Json[];
  return Promise.all(
    hits.map(async (r) => ({
      id: String(r.id),
      title: String(r.title || "Access request"),
      from: await partyName(deps, actor, r.created_by, r),
      created: String(r.created ?? "").slice(0, 10),
    })),
  );
}

/** The Share dialog's content for `record` as `actor` sees it; null when the caller does not manage it. */
export async function loadShareView(deps: PagesDeps, actor: Actor, record: Json): Promise<ShareView | null> {
  if (actor.kind !== "user") return null;
  const { services } = deps;
  const id = String(record.id);
  let grants: Json;
  try {
    grants = (await services.access.listGrants(actor, id)) as Json;
  } catch (error) {
    if (refused(error)) return null;
    throw error;
  }
  const links = (await services.access.listLinks(actor, id)) as Json;
  const settings: Json = record.parent?.access?.settings ?? {};
  const config = services.deps.config;
  return {
    recordId: id,
    pageUrl: String(record.links?.self_html ?? `${services.deps.links.baseUrl}/records/${id}`),
    recordRestricted: record.access?.record === "restricted",
    settings: {
      allowUsers: settings.allow_user_requests === true,
      allowGuests: settings.allow_guest_requests === true,
      conditions: typeof settings.accept_conditions_text === "string" ? settings.accept_conditions_text : "",
      days: Number(settings.secret_link_expiration ?? 0),
    },
    owner: await partyName(deps, actor, record.parent?.access?.owned_by),
    grants: await Promise.all(
      ((grants.hits?.hits ?? []) as Json[]).map(async (g) => {
        const isUser = g.subject?.type === "user";
        const subject = String(g.subject?.id ?? "");
        return {
          kind: isUser ? ("users" as const) : ("groups" as const),
          subject,
          name: isUser ? await partyName(deps, actor, { user: subject }) : await groupName(deps, actor, subject),
          permission: String(g.permission),
          expires: typeof g.expires_at === "string" ? g.expires_at : null,
        };
      }),
    ),
    links: ((links.hits?.hits ?? []) as Json[]).map((l) => ({
      id: String(l.id),
      permission: String(l.permission),
      expires: typeof l.expires_at === "string" ? l.expires_at : null,
      created: String(l.created_at ?? "").slice(0, 10),
      description: String(l.description ?? ""),
    })),
    requests: await openRequests(deps, actor, id),
    mailOff: !config.MAIL_SERVER,
    today: new Date(services.deps.clock.now()).toISOString().slice(0, 10),
  };
}
