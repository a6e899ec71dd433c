// What the community pages share: the logo (when there is one), a community as a listing card, the
// header of a community's pages with its tabs, and the caller's standing as the service answers it.
import type { Actor } from "../../core/actor";
import { forbidden, HttpError, unauthorized } from "../../core/errors";
import type { PagesDeps } from "../context";
import { snippetOf } from "../search/cards";

type Json = Record<string, any>;

/**
 * Whether the community has a logo the caller may see. The community JSON does not say; the logo
 * service answers `If-None-Match: *` with a 304 when there is one (no bytes read) and 404 when not.
 */
export async function hasLogo(deps: PagesDeps, actor: Actor, communityId: string): Promise<boolean> {
  try {
    await deps.services.communities.readLogo(actor, communityId, "*");
    return true;
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return false;
    throw error;
  }
}

/**
 * The settings page for those the communities service says may update the community (its
 * `permissionsOf`, the rules its update checks): 401 for a guest (sign in first), 403 for others.
 */
export function checkSettings(permissions: { can_update: boolean }, actor: Actor): void {
  if (permissions.can_update) return;
  throw actor.kind === "anonymous" ? unauthorized() : forbidden();
}

export const titleOf = (c: Json) => String(c.metadata?.title ?? c.slug);
export const pathOf = (c: Json) => `/communities/${encodeURIComponent(String(c.slug))}`;

/** The logo, or a lettered placeholder; decorative beside the title, so no alternative text. */
export function Logo({ community, has, size = 64 }: { community: Json; has: boolean; size?: number }) {
  if (has) return <img class="logo" src={`/api/communities/${encodeURIComponent(String(community.id))}/logo`} alt="" width={size} height={size} />;
  return (
    <span class="logo placeholder" aria-hidden="true">
      {titleOf(community).slice(0, 1).toUpperCase()}
    </span>
  );
}

export function CommunityCard({ community, has, level = 3 }: { community: Json; has: boolean; level?: 2 | 3 }) {
  const Heading = level === 2 ? "h2" : "h3";
  const type = community.metadata?.type;
  const restricted = community.access?.visibility === "restricted";
  return (
    <article class="card community-card">
      <Logo community={community} has={has} />
      <div>
        <Heading>
          <a href={pathOf(community)}>{titleOf(community)}</a>
        </Heading>
        {type || restricted ? (
          <p class="result-meta">
            {type ? <span class="badge">{String(type.title?.en ?? type.id)}</span> : null} {restricted ? <span class="badge restricted">Restricted</span> : null}
          </p>
        ) : null}
        {community.metadata?.description ? <p class="snippet">{snippetOf(String(community.metadata.description), 240)}</p> : null}
      </div>
    </article>
  );
}

/**
 * Whether the caller may open the community's Requests tab: the requests service's own rule for
 * listing a community's requests (`GET /api/communities/{id}/requests`: curators and up,
 * administrators), asked with a one-row search; a refusal means no tab.
 */
export async function canSeeRequests(deps: PagesDeps, actor: Actor, communityId: string): Promise<boolean> {
  if (actor.kind !== "user") return false;
  try {
    await deps.services.requests.searchCommunityRequests(actor, communityId, { size: "1" });
    return true;
  } catch (error) {
    if (error instanceof HttpError && (error.status === 403 || error.status === 404)) return false;
    throw error;
  }
}

type Tab = "records" | "members" | "requests" | "settings";

/** The tabs of a community's pages; the managing ones only for those the services let in. */
export function CommunityTabs(props: { community: Json; current: Tab; members: boolean; settings: boolean; requests?: boolean }) {
  const base = pathOf(props.community);
  const tabs: [Tab, string, string][] = [["records", base, "Records"]];
  if (props.members) tabs.push(["members", `${base}/members`, "Members"]);
  if (props.requests) tabs.push(["requests", `${base}/requests`, "Requests"]);
  if (props.settings) tabs.push(["settings", `${base}/settings`, "Settings"]);
  return (
    <nav class="tabs" aria-label="Community">
      {tabs.map(([key, href, label]) => (
        <a href={href} aria-current={key === props.current ? "page" : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}

/** The head of every page of a community: logo, title (the page's h1, or a link above it), type, website. */
export function CommunityHead({ community, has, heading }: { community: Json; has: boolean; heading?: string }) {
  const m = (community.metadata ?? {}) as Json;
  const restricted = community.access?.visibility === "restricted";
  return (
    <header class="community-head">
      <Logo community={community} has={has} size={96} />
      <div>
        {heading ? (
          <>
            <p class="muted kicker">
              <a href={pathOf(community)}>{titleOf(community)}</a>
            </p>
            <h1>{heading}</h1>
          </>
        ) : (
          <h1>{titleOf(community)}</h1>
        )}
        <p class="result-meta">
          {m.type ? <span class="badge">{String(m.type.title?.en ?? m.type.id)}</span> : null}
          {restricted ? <span class="badge restricted">Restricted: members only</span> : <span class="badge open">Public</span>}
          {m.website ? (
            <a href={String(m.website)} rel="nofollow noopener">
              {String(m.website)}
            </a>
          ) : null}
        </p>
      </div>
    </header>
  );
}
