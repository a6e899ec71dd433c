// The landing page of a record (`/records/{id}`): what it is, who made it, its files and previews,
// how to cite and export it, its versions and communities; a draft shown with `?preview=1` too.
import { EditButtons } from "../forms";
import { list, type JsonObject } from "../../core/json";
import { Layout, type PageContext } from "../layout";
import { AwaitingModerationNotice, isAwaitingModeration } from "../moderation";
import { accessSummary, AccessRequestFields } from "./access";
import { CitationBox, ExportLinks } from "./citation";
import { DoiBadge } from "./doi-badge";
import { FilesTable } from "./files";
import { RecordHead } from "./head";
import { titleOf } from "./links";
import { Descriptions, Details, Licences, People } from "./metadata";
import { RecordStats } from "./stats";
import type { LandingView } from "./view";
import { ShareDialog } from "./share";
import type { ShareView } from "./share-view";

type Json = JsonObject;

/** `long-title`: browsers and search results cut a page title at about 60 characters. */
const TITLE_MAX = 50;
const pageTitle = (title: string) => (title.length <= TITLE_MAX ? title : `${title.slice(0, TITLE_MAX - 1).trimEnd()}…`);

function FilesSection({ view }: { view: LandingView }) {
  const { record, rows } = view;
  const access = accessSummary(record);
  const enabled = record.files?.enabled !== false;
  return (
    <section aria-labelledby="files-heading">
      <h2 id="files-heading">Files</h2>
      {!enabled ? <p class="muted">This record has no files: it describes the work.</p> : null}
      {enabled && rows.length === 0 ? <p class={`notice ${access.kind}`}>{access.text}</p> : null}
      {rows.length ? <FilesTable rows={rows} urls={view.urls} texts={view.texts} /> : null}
      {view.accessForm ? <AccessRequestFields form={view.accessForm} /> : null}
    </section>
  );
}

function Versions({ view }: { view: LandingView }) {
  const { items, total } = view.versions;
  if (!items.length) return null;
  return (
    <section class="card" aria-labelledby="versions-heading">
      <h2 id="versions-heading">Versions</h2>
      <ol class="plain versions">
        {items.map((v) => (
          <li>
            {v.id === view.record.id ? <strong aria-current="page">Version {v.index} (this one)</strong> : <a href={view.urls.page(v.id)}>Version {v.index}</a>}{" "}
            <span class="muted">{v.date}</span>
          </li>
        ))}
      </ol>
      {total > items.length ? (
        <p class="muted small">
          The newest {items.length} of {total} versions are listed.
        </p>
      ) : null}
    </section>
  );
}

function Communities({ record }: { record: Json }) {
  const entries = list(record.parent?.communities?.entries).filter((c) => c?.slug);
  if (!entries.length) return null;
  return (
    <section class="card" aria-labelledby="communities-heading">
      <h2 id="communities-heading">Communities</h2>
      <ul class="plain">
        {entries.map((c) => (
          <li>
            <a href={`/communities/${encodeURIComponent(String(c.slug))}`}>{String(c.metadata?.title ?? c.slug)}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Edit and new version (the deposit pages' forms), for the owner of the latest version; Share for whoever manages it. */
function OwnerActions({ ctx, view, share }: { ctx: PageContext; view: LandingView; share: ShareView | null }) {
  if (share) {
    return (
      <section class="card" aria-labelledby="manage-heading">
        <h2 id="manage-heading">Manage</h2>
        {view.owner && view.record.versions?.is_latest ? <EditButtons ctx={ctx} id={encodeURIComponent(String(view.record.id))} /> : null}
        <ShareDialog view={share} />
      </section>
    );
  }
  if (!view.owner || !view.record.versions?.is_latest) return null;
  const id = encodeURIComponent(String(view.record.id));
  return (
    <section class="card" aria-labelledby="manage-heading">
      <h2 id="manage-heading">Manage</h2>
      <EditButtons ctx={ctx} id={id} />
    </section>
  );
}

export function LandingPage({ ctx, view, baseUrl, share = null }: { ctx: PageContext; view: LandingView; baseUrl: string; share?: ShareView | null }) {
  const { record } = view;
  const m: Json = record.metadata ?? {};
  const title = typeof m.title === "string" && m.title.trim() ? m.title.trim() : String(record.id);
  const access = accessSummary(record);
  const doi = typeof record.pids?.doi?.identifier === "string" ? record.pids.doi.identifier : "";
  const canonical = typeof record.links?.self_html === "string" ? record.links.self_html : `${baseUrl}/records/${record.id}`;
  const head = view.isDraft ? <meta name="robots" content="noindex" /> : <RecordHead record={record} canonical={canonical} jsonLd={view.jsonLd} baseUrl={baseUrl} />;
  return (
    <Layout ctx={ctx} title={pageTitle(title)} head={head} scripts={share ? ["record.js", "share.js"] : ["record.js"]}>
      <article class="record">
        {isAwaitingModeration(record) ? <AwaitingModerationNotice /> : null}
        {view.isDraft ? (
          <p class="notice">
            A preview of a draft: it is not published, and only people who may see the draft see this page.{" "}
            <a href={`/uploads/${encodeURIComponent(String(record.id))}`}>Edit the draft</a>
          </p>
        ) : null}
        <p class="record-meta">
          <span class={`badge ${access.kind}`}>{access.badge}</span> <span class="muted">{String(m.publication_date ?? "")}</span>
          {m.resource_type ? <span class="muted"> · {titleOf(m.resource_type)}</span> : null}
          {typeof m.version === "string" && m.version ? <span class="muted"> · Version {m.version}</span> : null}
        </p>
        <h1>{title}</h1>
        <People entries={list(m.creators)} />
        {list(m.contributors).length ? (
          <details class="contributors">
            <summary>Contributors</summary>
            <People entries={list(m.contributors)} />
          </details>
        ) : null}
        <div class="columns main-side">
          <div>
            <Descriptions metadata={m} />
            <FilesSection view={view} />
            <Details record={record} />
          </div>
          <aside aria-label="About this record">
            <section class="card" aria-labelledby="access-heading">
              <h2 id="access-heading">Access</h2>
              <p>{access.text}</p>
            </section>
            {!view.isDraft ? <RecordStats stats={record.stats} /> : null}
            {!view.isDraft && doi && typeof record.links?.doi === "string" ? <DoiBadge doi={doi} doiUrl={record.links.doi} baseUrl={baseUrl} /> : null}
            {view.citation ? (
              <CitationBox
                action={`/records/${encodeURIComponent(String(record.id))}`}
                api={view.urls.api()}
                token={view.token}
                style={view.citation.style}
                text={view.citation.text}
              />
            ) : null}
            {view.citation ? <ExportLinks urls={view.urls} style={view.citation.style} /> : null}
            <Licences rights={list(m.rights)} />
            <Communities record={record} />
            <Versions view={view} />
            <OwnerActions ctx={ctx} view={view} share={share} />
          </aside>
        </div>
      </article>
    </Layout>
  );
}
