// Administration → Users, moderation of new accounts: the "Awaiting moderation" filter (the accounts
// whose open user-moderation request the requests search finds) and, on a user's page, the open
// request with the drafts it holds. Approve and Block on that page resolve the request.
import type { Actor } from "../../core/actor";
import { USER_MODERATION } from "../../moderation/model";
import type { ManagedUserJson } from "../../users/present";
import { DataTable } from "../table";
import { TableBox, when } from "./frame";
import type { AdminKit } from "./kit";

/** The Users screen's `state` value of the filter. */
export const AWAITING = "moderation";

/** The accounts with an open user-moderation request, oldest request first, as the users list shows them (paged by the requests search). */
export async function awaitingModeration(kit: AdminKit, actor: Actor, query: { q: string; page?: string; size?: string }) {
  const { requests, userAdmin } = kit.services;
  const found = await requests.searchRequests(actor, { type: USER_MODERATION, is_open: "true", sort: "oldest", q: query.q, page: query.page ?? "1", size: query.size ?? "10" });
  const hits: ManagedUserJson[] = [];
  for (const request of found.hits.hits) {
    const userId = request.topic?.user;
    if (userId !== undefined) hits.push(await userAdmin.readManagedUser(actor, userId));
  }
  return { hits: { hits, total: found.hits.total } };
}

export interface PendingModeration {
  request: { id: string; number: string; created: number };
  drafts: { id: string; title: string }[];
}

/** The account's open request with its held drafts' titles (a draft discarded since is left out), or null. */
export async function pendingModerationOf(kit: AdminKit, actor: Actor, userId: number): Promise<PendingModeration | null> {
  const { moderation, records } = kit.services;
  const pending = await moderation.pendingOf(actor, userId);
  if (!pending) return null;
  const drafts: PendingModeration["drafts"] = [];
  for (const id of pending.drafts) {
    const draft = await records.readDraft(actor, id).catch(() => null);
    if (draft) drafts.push({ id, title: String(draft.metadata?.title || "Untitled") });
  }
  return { request: { id: pending.request.id, number: pending.request.number, created: pending.request.created }, drafts };
}

export function UserModeration({ pending }: { pending: PendingModeration }) {
  return (
    <section aria-labelledby="user-moderation">
      <h2 id="user-moderation">Awaiting moderation</h2>
      <p>
        Their publications wait since {when(pending.request.created)} in <a href={`/me/requests/${encodeURIComponent(pending.request.id)}`}>request #{pending.request.number}</a>.
        Approve publishes them and lets the account publish directly from now on; Block blocks the account and removes what it published (reason: spam).
      </p>
      {pending.drafts.length === 0 ? (
        <p class="muted">No held upload is left (the drafts were discarded).</p>
      ) : (
        <TableBox label="Table of held uploads">
          <DataTable caption="Uploads held until the account is approved" columns={["Title", "Id"]}>
            {pending.drafts.map((d) => (
              <tr>
                <th scope="row">
                  <a href={`/records/${encodeURIComponent(d.id)}?preview=1`}>{d.title}</a>
                </th>
                <td>{d.id}</td>
              </tr>
            ))}
          </DataTable>
        </TableBox>
      )}
    </section>
  );
}
