// /me/uploads and /me/communities: the caller's drafts and records (records service
// listUserRecords) with their status and the ways to edit them, and their communities.
import { DataTable } from "../table";
import type { PageContext } from "../layout";
import { Layout } from "../layout";
import { AWAITING_MODERATION_LABEL, isAwaitingModeration } from "../moderation";
import { DashboardNav, Pager } from "./parts";

type Json = Record<string, any>;

function statusOf(hit: Json, inReview: boolean): string {
  if (!hit.is_draft) return "Published";
  if (inReview) return "In review";
  if (isAwaitingModeration(hit)) return AWAITING_MODERATION_LABEL;
  if (hit.status === "published") return "Published, edit in progress";
  if (hit.status === "new_version_draft") return "New version (draft)";
  return "Draft";
}

/** The buttons that open a published record for editing or start its next version (page forms). */
function RecordForms({ ctx, hit, name }: { ctx: PageContext; hit: Json; name: string }) {
  const id = encodeURIComponent(String(hit.id));
  return (
    <>
      <form class="inline" method="post" action={`/uploads/${id}/edit`}>
        <input type="hidden" name="csrf" value={ctx.actor.csrf ?? ""} />
        <button type="submit" class="secondary">
          Edit<span class="sr-only"> {name}</span>
        </button>
      </form>
      <form class="inline" method="post" action={`/uploads/${id}/new-version`}>
        <input type="hidden" name="csrf" value={ctx.actor.csrf ?? ""} />
        <button type="submit" class="secondary">
          New version<span class="sr-only"> of {name}</span>
        </button>
      </form>
    </>
  );
}

function UploadRow({ ctx, hit, inReview }: { ctx: PageContext; hit: Json; inReview: boolean }) {
  const id = encodeURIComponent(String(hit.id));
  const name = String(hit.metadata?.title || "Untitled");
  const draftOfRecord = hit.is_draft && hit.status === "published";
  return (
    <tr>
      <td>
        <a href={hit.is_draft ? `/uploads/${id}` : `/records/${id}`}>{name}</a>
        <div class="muted">
          Version {String(hit.versions?.index ?? 1)} · {String(hit.access?.status ?? "")}
        </div>
      </td>
      <td>{statusOf(hit, inReview)}</td>
      <td>{String(hit.updated ?? "").slice(0, 10)}</td>
      <td class="actions">
        {hit.is_draft ? (
          <a class="button secondary" href={`/uploads/${id}`}>
            Continue<span class="sr-only"> {name}</span>
          </a>
        ) : (
          <RecordForms ctx={ctx} hit={hit} name={name} />
        )}
        {!hit.is_draft || draftOfRecord ? (
          <a href={`/records/${id}`}>
            View<span class="sr-only"> {name}</span>
          </a>
        ) : null}
      </td>
    </tr>
  );
}

export function UploadsPage(props: { ctx: PageContext; result: Json; q: string; page: number; size: number; /** Ids of drafts with an open review. */ inReview: Set<string> }) {
  const { ctx, result, q, page, size } = props;
  const hits = result.hits.hits as Json[];
  const href = (p: number) => `/me/uploads?${new URLSearchParams({ ...(q ? { q } : {}), page: String(p) })}`;
  return (
    <Layout ctx={ctx} title="My uploads">
      <div class="dashboard">
        <h1>My dashboard</h1>
        <DashboardNav current="/me/uploads" />
        <div class="actions">
          <a class="button" href="/uploads/new">
            New upload
          </a>
        </div>
        <form class="actions" method="get" action="/me/uploads" role="search">
          <label class="sr-only" for="uploads-q">
            Search my uploads
          </label>
          <input id="uploads-q" name="q" type="search" value={q} placeholder="Search my uploads" />
          <button type="submit" class="secondary">
            Search
          </button>
        </form>
        {hits.length === 0 ? (
          <p class="muted">{q ? "Nothing matches." : "No uploads yet."}</p>
        ) : (
          <div class="table-wrap">
            <DataTable caption="My drafts and records" columns={["Title", "Status", "Updated", "Actions"]}>
              {hits.map((hit) => (
                <UploadRow ctx={ctx} hit={hit} inReview={hit.is_draft && props.inReview.has(String(hit.id))} />
              ))}
            </DataTable>
          </div>
        )}
        <Pager page={page} size={size} total={Number(result.hits.total) || 0} href={href} />
      </div>
    </Layout>
  );
}

export function CommunitiesPage({ ctx, result, page, size }: { ctx: PageContext; result: Json; page: number; size: number }) {
  const hits = result.hits.hits as Json[];
  return (
    <Layout ctx={ctx} title="My communities">
      <div class="dashboard">
        <h1>My dashboard</h1>
        <DashboardNav current="/me/communities" />
        {hits.length === 0 ? <p class="muted">You are not a member of any community yet.</p> : null}
        <ul class="plain">
          {hits.map((c) => (
            <li class="card">
              <h2 class="card-title">
                <a href={`/communities/${encodeURIComponent(String(c.slug))}`}>{String(c.metadata?.title ?? c.slug)}</a>
              </h2>
              <p class="muted">
                {String(c.slug)} · {String(c.access?.visibility ?? "")}
              </p>
              {c.metadata?.description ? <p>{String(c.metadata.description)}</p> : null}
            </li>
          ))}
        </ul>
        <Pager page={page} size={size} total={Number(result.hits.total) || 0} href={(p) => `/me/communities?page=${p}`} />
        <p>
          <a href="/communities">All communities</a>
        </p>
      </div>
    </Layout>
  );
}
