// What invitations and membership requests share: finding a community's requests of either type
// through the engine, "open" as the members rules mean it, the checks that keep one pending thing
// per user and community, and changing the role a request offers.
import { requireUser, systemActor, type Actor } from "../core/actor";
import { forbidden, validationError, type FieldError } from "../core/errors";
import type { PagingLimits } from "../core/paging";
import type { RequestView } from "../requests/request-type";
import { ROLE_TITLES, type Role } from "../communities/roles";
import type { MembersDeps } from "./context";
import { actsForCommunity, checkManageMembers, checkVisibleChoice, managesRole, type Caller } from "./policy";
import { presentRequestItem } from "./present";
import { offeredRole, searchRequestItems } from "./search";
import * as store from "./store";
import { checkInvitationUpdateBody } from "./validate";

export const INVITATION = "community-invitation";
export const MEMBERSHIP_REQUEST = "community-membership-request";
/** More than a community ever collects; the engine's default cap (1,000) would cut long histories short. */
const ALL = 1_000_000;

/** What the invitation and membership-request operations are built from (service.ts hands it over). */
export interface OperationsContext {
  deps: MembersDeps;
  limits: PagingLimits;
  loadCommunity(actor: Actor, key: string): Promise<{ community: NonNullable<Awaited<ReturnType<MembersDeps["communities"]["find"]>>>; caller: Caller }>;
}

/** Submitted and not yet past its expiry: one the daily job has not expired yet no longer blocks a new one. */
export const isPending = (view: RequestView, now: number) => view.status === "submitted" && (view.expiresAt === null || view.expiresAt > now);

export function createRequestLookups(deps: MembersDeps) {
  const { db, requests } = deps;
  const ofCommunity = async (type: string, communityId: string) =>
    type === INVITATION
      ? await requests.findRequests({ type, topic: { kind: "community", id: communityId }, limit: ALL })
      : await requests.findRequests({ type, receiver: { kind: "community", id: communityId }, limit: ALL });

  /** Who the request is about: the invitee, or whoever asked to join. */
  const userOf = (view: RequestView) => (view.type === INVITATION ? view.receiver.id : view.createdBy.id);

  /** The user's pending request of the type in the community, if any. */
  async function pendingOf(type: string, communityId: string, userId: number, now: number): Promise<RequestView | undefined> {
    const party = type === INVITATION ? { receiver: { kind: "user" as const, id: String(userId) } } : { createdBy: { kind: "user" as const, id: String(userId) } };
    return (await requests.findRequests({ type, ...party, topic: { kind: "community", id: communityId }, openOnly: true })).find((v) => isPending(v, now));
  }

  /** Why the user may not be invited or ask to join now: a member already, or an invitation or a membership request pending; null when free. */
  async function blockerOf(communityId: string, userId: number, now: number): Promise<"member" | "invited" | "requested" | null> {
    if (await store.findUserMembership(db, communityId, userId)) return "member";
    if (await pendingOf(INVITATION, communityId, userId, now)) return "invited";
    return (await pendingOf(MEMBERSHIP_REQUEST, communityId, userId, now)) ? "requested" : null;
  }

  return { ofCommunity, userOf, pendingOf, blockerOf };
}

/**
 * The role an open request offers, changed by a manager of both the old and the new role (owners
 * for owner), with a timeline comment the invitee or requester sees (InvenioRDM's wording). Runs
 * inside the caller's transaction. `visible` (invitations only) may only hide (rule 6).
 */
export async function changeOfferedRole(deps: MembersDeps, caller: Caller, view: RequestView, change: { role: Role; visible?: boolean }, now: number) {
  const previous = offeredRole(view);
  if (!managesRole(caller, previous) || !managesRole(caller, change.role))
    throw forbidden(`Only owners may offer or change the ${change.role === "owner" ? "owner" : previous} role.`);
  const invitation = view.type === INVITATION && change.visible !== undefined;
  if (invitation) checkVisibleChoice(caller, { userId: Number(view.receiver.id), role: previous, visible: false }, change.visible);
  const payload = { ...view.payload, role: change.role, ...(invitation ? { visible: change.visible } : {}) };
  await deps.requests.updatePayload(view.id, payload, now);
  if (change.role !== previous) {
    // Administrators are not parties of a request: their note is written by the system.
    const author = actsForCommunity(caller) ? caller.actor : systemActor;
    const content = `<p>You will join as "${ROLE_TITLES[change.role]}" (changed from: "${ROLE_TITLES[previous]}").</p>`;
    await deps.requests.createComment(author, view.id, { payload: { content, format: "html" } });
  }
}

/** Resolves `members` (users) to their pending requests of the type; 400 naming each user without one. */
export async function pendingRequestsOf(lookups: ReturnType<typeof createRequestLookups>, type: string, communityId: string, members: { id: string }[], now: number) {
  const errors: FieldError[] = [];
  const views: RequestView[] = [];
  for (const [i, m] of members.entries()) {
    const view = /^\d{1,15}$/.test(m.id) ? await lookups.pendingOf(type, communityId, Number(m.id), now) : undefined;
    if (!view) errors.push({ field: `members.${i}`, messages: [`The user '${m.id}' has no open ${type === INVITATION ? "invitation" : "membership request"} in this community.`] });
    views.push(view!);
  }
  if (errors.length) throw validationError(errors, "Invalid member specified.");
  return views;
}

/** How one kind of community request is listed: its type, its path and what each item shows. */
export interface RequestListingKind {
  type: string;
  /** The listing's path under the community, e.g. `invitations`. */
  path: string;
  /** The membership id and visibility an item shows. */
  itemId(view: RequestView): string;
  visible(view: RequestView): boolean;
  permissions(caller: Caller, role: Role, isOpen: boolean): Record<string, boolean>;
  /** Whether an update may also change the visibility the request offers (invitations do). */
  offersVisibility: boolean;
}

/** Managers, owners and administrators: every request of the kind for the community, open or answered. */
export async function searchCommunityRequests(ctx: OperationsContext, kind: RequestListingKind, actor: Actor, key: string, query: Record<string, unknown>) {
  const { deps, limits, loadCommunity } = ctx;
  const lookups = createRequestLookups(deps);
  const { community, caller } = await loadCommunity(actor, key);
  checkManageMembers(caller);
  const listing = {
    db: deps.db,
    limits,
    caller,
    views: await lookups.ofCommunity(kind.type, community.id),
    userOf: lookups.userOf,
    url: (q: Record<string, unknown>) => deps.links.api(`/communities/${community.id}/${kind.path}`, q as never),
  };
  // One engine read per item of the page (the engine presents one request at a time).
  return await searchRequestItems(listing, query, async (item) => {
    const request = await deps.requests.presentFor(actor, item.view.id);
    const user = { type: "user" as const, id: String(item.user.id), name: item.user.name, description: item.user.affiliations };
    const fields = { id: kind.itemId(item.view), user, role: item.role, visible: kind.visible(item.view), created: item.view.created, updated: item.view.updated };
    return presentRequestItem(fields, request, kind.permissions(caller, item.role, request.is_open), caller, deps.links);
  });
}

/** The role (and, where the kind offers one, the visibility) of the community's open requests of the kind; all or nothing. */
export async function updateCommunityRequests(ctx: OperationsContext, kind: RequestListingKind, actor: Actor, key: string, body: unknown): Promise<void> {
  requireUser(actor);
  const { deps, loadCommunity } = ctx;
  const { community, caller } = await loadCommunity(actor, key);
  checkManageMembers(caller);
  const input = checkInvitationUpdateBody(body);
  const now = deps.clock.now();
  const lookups = createRequestLookups(deps);
  await deps.db.write(async () => {
    for (const view of await pendingRequestsOf(lookups, kind.type, community.id, input.members, now)) {
      await changeOfferedRole(deps, caller, view, kind.offersVisibility ? { role: input.role, visible: input.visible } : { role: input.role }, now);
    }
  });
}
