// The deposit form's markup: the plain fields rendered with the draft's values, the containers the
// deposit script fills (creators, licences, funding, files) and the draft as JSON data for it.
import type { QuotaUsage } from "../../quotas/model";
import type { Child } from "../jsx-runtime";
import { StorageUsage } from "../storage";

type Json = Record<string, any>;

export interface DepositView {
  /** The draft as the REST API shows it to the caller, or null on /uploads/new. */
  draft: Json | null;
  resourceTypes: { id: string; title: string }[];
  /** Communities for a review: the caller's first, then the others they may read. */
  communities: { mine: Json[]; others: Json[] };
  doisEnabled: boolean;
  siteName: string;
  today: string;
  /** The first creator of a new upload: the depositor, from their profile (name, ORCID iD, affiliation). */
  firstCreator: Json;
  /** The draft's quota and the depositor's, with what each holds (null: not shown). */
  storage: { record: QuotaUsage | null; user: QuotaUsage | null };
}

/** A field's wrapper: the dotted path the REST API names in `errors`, and where its messages go. */
function Field({ path, id, children, hint }: { path: string; id: string; children?: Child; hint?: string }) {
  return (
    <div class="field" data-field={path}>
      {children}
      {hint ? (
        <p class="hint muted" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <p class="field-error" id={`${id}-error`} hidden />
    </div>
  );
}

/** JSON in a data block: `<` escaped so no text in it can end the element. */
const jsonData = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

const keywordsOf = (metadata: Json) => ((metadata.subjects ?? []) as Json[]).map((s) => String(s.subject ?? s.id ?? "")).join(", ");

function Visibility({ name, legend, value, labels }: { name: string; legend: string; value: string; labels: [string, string] }) {
  return (
    <Field path={`access.${name}`} id={`access-${name}`}>
      <fieldset class="choices">
        <legend>{legend}</legend>
        <label class="choice">
          <input type="radio" name={`access-${name}`} value="public" checked={value !== "restricted"} /> {labels[0]}
        </label>
        <label class="choice">
          <input type="radio" name={`access-${name}`} value="restricted" checked={value === "restricted"} /> {labels[1]}
        </label>
      </fieldset>
    </Field>
  );
}

function FilesSection({ draft, storage }: { draft: Json | null; storage: DepositView["storage"] }) {
  const locked = draft?.status === "published";
  return (
    <section class="card" aria-labelledby="files-heading">
      <h2 id="files-heading">Files</h2>
      {locked ? (
        <p class="muted">This is an edit of a published record: its files stay as published. Start a new version to change them.</p>
      ) : (
        <div class="dropzone" id="dropzone">
          <p>Drag and drop files here, or</p>
          <label for="file-input" class="button secondary">
            Choose files
          </label>
          <input id="file-input" class="sr-only" type="file" multiple />
        </div>
      )}
      <Field path="files.enabled" id="files">
        <ul class="plain files" id="file-list" />
      </Field>
      <button type="button" class="secondary" id="import-files" hidden>
        Import the files of the previous version
      </button>
      {locked ? null : (
        <label class="choice">
          <input type="checkbox" id="metadata-only" checked={draft?.files?.enabled === false} /> Metadata-only record (no files)
        </label>
      )}
      {storage.record ? <StorageUsage label="This upload" usage={storage.record} /> : null}
      {storage.user ? <StorageUsage label="All your uploads" usage={storage.user} /> : null}
    </section>
  );
}

function MetadataSection({ view }: { view: DepositView }) {
  const metadata: Json = view.draft?.metadata ?? {};
  const selectedType = String(metadata.resource_type?.id ?? "");
  const date = view.draft ? String(metadata.publication_date ?? "") : view.today;
  const publisher = view.draft ? String(metadata.publisher ?? "") : view.siteName;
  return (
    <section class="card" aria-labelledby="basic-heading">
      <h2 id="basic-heading">Basic information</h2>
      <Field path="metadata.resource_type" id="resource-type">
        <label for="resource-type">Resource type (required)</label>
        <select id="resource-type" required>
          <option value="" selected={!selectedType}>
            Choose a resource type
          </option>
          {view.resourceTypes.map((t) => (
            <option value={t.id} selected={t.id === selectedType}>
              {t.title}
            </option>
          ))}
        </select>
      </Field>
      <Field path="metadata.title" id="title">
        <label for="title">Title (required)</label>
        <input id="title" type="text" value={String(metadata.title ?? "")} />
      </Field>
      <Field path="metadata.publication_date" id="publication-date" hint="YYYY-MM-DD, YYYY-MM or YYYY.">
        <label for="publication-date">Publication date (required)</label>
        <input id="publication-date" type="text" inputmode="numeric" value={date} aria-describedby="publication-date-hint" />
      </Field>
      <Field path="metadata.creators" id="creators">
        <h3 id="creators-heading">Creators (required)</h3>
        <ol class="plain rows" id="creator-list" />
        <button type="button" class="secondary" id="add-creator">
          Add a creator
        </button>
      </Field>
      <Field path="metadata.description" id="description" hint="Plain text, or simple HTML (paragraphs, links, emphasis, lists).">
        <label for="description">Description</label>
        <textarea id="description" aria-describedby="description-hint">
          {String(metadata.description ?? "")}
        </textarea>
      </Field>
      <Field path="metadata.rights" id="rights">
        <div class="chips-field" id="licences" data-suggest="/api/vocabularies/licenses" data-label="Licence" />
      </Field>
      <Field path="metadata.subjects" id="keywords" hint="Separate keywords with commas.">
        <label for="keywords">Keywords</label>
        <input id="keywords" type="text" value={keywordsOf(metadata)} aria-describedby="keywords-hint" />
      </Field>
      <Field path="metadata.publisher" id="publisher">
        <label for="publisher">Publisher{view.doisEnabled ? " (required for a DOI)" : ""}</label>
        <input id="publisher" type="text" value={publisher} />
      </Field>
    </section>
  );
}

function AccessSection({ draft }: { draft: Json | null }) {
  const access: Json = draft?.access ?? {};
  const embargo: Json = access.embargo ?? {};
  return (
    <section class="card" aria-labelledby="access-heading">
      <h2 id="access-heading">Access</h2>
      <Visibility name="record" legend="Who can see the record" value={String(access.record ?? "public")} labels={["Everyone", "Only people I share it with"]} />
      <Visibility name="files" legend="Who can download the files" value={String(access.files ?? "public")} labels={["Everyone", "Only people I share them with"]} />
      <Field path="access.embargo" id="embargo">
        <label class="choice">
          <input type="checkbox" id="embargo-active" checked={embargo.active === true} /> Embargo: make the record and files public on a date
        </label>
        <Field path="access.embargo.until" id="embargo-until">
          <label for="embargo-until">Embargo ends on</label>
          <input id="embargo-until" type="date" value={String(embargo.until ?? "")} />
        </Field>
        <label for="embargo-reason">Reason for the embargo</label>
        <input id="embargo-reason" type="text" value={String(embargo.reason ?? "")} />
      </Field>
    </section>
  );
}

function ReviewSection({ view }: { view: DepositView }) {
  const review: Json | null = view.draft?.parent?.review ?? null;
  if (view.draft?.status === "published") return null;
  const option = (c: Json) => <option value={String(c.id)}>{String(c.metadata?.title ?? c.slug)}</option>;
  return (
    <section class="card" aria-labelledby="review-heading">
      <h2 id="review-heading">Submit to a community</h2>
      <p class="muted" id="review-status">
        {review ? `Review: ${review.status}.` : "Submit the upload to a community: its curators review it and publish it there."}
        {review ? (
          <>
            {" "}
            <a href={`/me/requests/${review.id}`}>Open the review request</a>
          </>
        ) : null}
      </p>
      <Field path="receiver.community" id="community">
        <label for="community">Community</label>
        <select id="community">
          <option value="">Choose a community</option>
          {view.communities.mine.length ? <optgroup label="My communities">{view.communities.mine.map(option)}</optgroup> : null}
          {view.communities.others.length ? <optgroup label="Other communities">{view.communities.others.map(option)}</optgroup> : null}
        </select>
      </Field>
      <label for="review-message">Message to the curators (optional)</label>
      <textarea id="review-message" />
      <div class="actions">
        <button type="button" class="secondary" id="submit-review">
          Submit for review
        </button>
      </div>
    </section>
  );
}

/** The whole form; the deposit script reads `#deposit-data` and drives everything through the REST API. */
export function DepositForm({ view }: { view: DepositView }) {
  const draft = view.draft;
  const doi = draft?.pids?.doi?.identifier;
  const data = { draft, doisEnabled: view.doisEnabled, firstCreator: view.firstCreator };
  return (
    <form id="deposit" class="deposit" novalidate>
      <script type="application/json" id="deposit-data" dangerouslySetInnerHTML={{ __html: jsonData(data) }} />
      <div id="deposit-errors" class="notice error" tabindex={-1} hidden />
      <FilesSection draft={draft} storage={view.storage} />
      <MetadataSection view={view} />
      <section class="card" aria-labelledby="funding-heading">
        <h2 id="funding-heading">Funding</h2>
        <Field path="metadata.funding" id="funding">
          <ol class="plain rows" id="funding-list" />
          <button type="button" class="secondary" id="add-funding">
            Add funding
          </button>
        </Field>
      </section>
      <AccessSection draft={draft} />
      <ReviewSection view={view} />
      <section class="card" aria-labelledby="doi-heading" hidden={!view.doisEnabled}>
        <h2 id="doi-heading">DOI</h2>
        <Field path="pids.doi" id="doi">
          <p id="doi-value">{doi ? `Reserved: ${String(doi)}` : "No DOI yet: one is minted when the record is published, or reserve it now."}</p>
        </Field>
        <button type="button" class="secondary" id="reserve-doi" hidden={!view.doisEnabled || Boolean(doi)}>
          Reserve a DOI
        </button>
      </section>
      <div class="actions sticky">
        <button type="submit" id="save">
          Save draft
        </button>
        <button type="button" id="publish">
          Publish
        </button>
        <button type="button" class="danger" id="delete-draft" hidden={!draft || draft.status === "published"}>
          Delete draft
        </button>
      </div>
      <p id="deposit-status" role="status" aria-live="polite" />
    </form>
  );
}
