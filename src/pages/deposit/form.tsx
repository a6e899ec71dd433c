// The deposit form's markup: the files, the metadata parts (basic.tsx, more.tsx: plain fields with
// the draft's values, containers the deposit scripts fill), access, review, DOI and the actions,
// and the draft with the vocabularies' choices as JSON data for the scripts.
import type { QuotaUsage } from "../../quotas/model";
import { StorageUsage } from "../storage";
import { BasicPart, RecommendedPart } from "./basic";
import type { DepositChoices } from "./choices";
import { Field } from "./field";
import { CustomFieldParts, FundingPart, IdentifierParts } from "./more";

type Json = Record<string, any>;

export interface DepositView {
  /** The draft as the REST API shows it to the caller, or null on /uploads/new. */
  draft: Json | null;
  /** The small vocabularies offered as selects (resource types titled with their parent). */
  choices: DepositChoices;
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

/** JSON in a data block: `<` escaped so no text in it can end the element. */
const jsonData = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

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
        {/* Hidden (so neither seen nor reached by the keyboard) until the embargo is ticked; deposit-metadata.js toggles it. */}
        <div id="embargo-details" hidden={embargo.active !== true}>
          <Field path="access.embargo.until" id="embargo-until">
            <label for="embargo-until">Embargo ends on</label>
            <input id="embargo-until" type="date" value={String(embargo.until ?? "")} />
          </Field>
          <label for="embargo-reason">Reason for the embargo</label>
          <input id="embargo-reason" type="text" value={String(embargo.reason ?? "")} />
        </div>
      </Field>
    </section>
  );
}

/** The draft's review (`parent.review`) and its community's title, as far as the caller may read it. */
function reviewOf(view: DepositView): { review: Json | null; community: string } {
  const review: Json | null = view.draft?.parent?.review ?? null;
  const id = String(review?.receiver?.community ?? "");
  const found = [...view.communities.mine, ...view.communities.others].find((c) => String(c.id) === id);
  return { review, community: found ? String(found.metadata?.title ?? found.slug) : "a community" };
}

const CLOSED_REVIEW: Record<string, string> = {
  declined: "declined it",
  expired: "did not decide in time: the review expired",
  cancelled: "— the review was cancelled",
};

/**
 * Where the draft stands with a community: while a review is open, "In review by …" with the
 * request and a Cancel button (nothing else to submit); otherwise the choice of a community, after
 * a closed review with what happened to it. deposit.js switches between the two.
 */
function ReviewSection({ view }: { view: DepositView }) {
  if (view.draft?.status === "published") return null;
  const { review, community } = reviewOf(view);
  const open = review?.status === "submitted";
  const closed = review ? CLOSED_REVIEW[String(review.status)] : undefined;
  const chosen = String(review?.receiver?.community ?? "");
  const option = (c: Json) => (
    <option value={String(c.id)} selected={String(c.id) === chosen}>
      {String(c.metadata?.title ?? c.slug)}
    </option>
  );
  return (
    <section class="card review" aria-labelledby="review-heading">
      <h2 id="review-heading">Community review</h2>
      <div id="review-open" hidden={!open}>
        <p class="notice in-review">
          <strong>
            In review by <span id="review-community">{community}</span>
          </strong>
          . Its curators publish the upload in the community or decline it; until then it cannot be published or submitted elsewhere.
        </p>
        <p class="actions">
          <a id="review-link" href={open ? `/me/requests/${encodeURIComponent(String(review!.id))}` : "/me/requests"}>
            Open the review request
          </a>
          <button type="button" class="secondary" id="cancel-review" data-request={open ? String(review!.id) : ""}>
            Cancel the review
          </button>
        </p>
      </div>
      <div id="review-choose" hidden={open}>
        <p class="muted" id="review-status">
          {closed
            ? `You submitted this upload to ${community}, and its curators ${closed}. Submit it again, to this or another community, or publish it yourself.`
            : "Submit the upload to a community: its curators review it and publish it there."}
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
      </div>
    </section>
  );
}

/** Publishing is asked once more, saying what stays as it is from then on (what Cairn allows after publication). */
function PublishDialog({ view }: { view: DepositView }) {
  const edit = view.draft?.status === "published";
  return (
    <dialog id="publish-dialog" class="confirm" aria-labelledby="publish-dialog-heading" aria-describedby="publish-dialog-text">
      <h2 id="publish-dialog-heading">{edit ? "Publish the changes?" : "Publish this upload?"}</h2>
      <div id="publish-dialog-text">
        <p>Once published:</p>
        <ul>
          <li>the files can no longer be added, replaced or removed: that takes a new version of the record;</li>
          <li>the record cannot be deleted: only an administrator can remove it, and its address then shows why it was removed;</li>
          {view.doisEnabled ? <li>its DOI is registered and points to the record for good;</li> : null}
          <li>the description and other metadata can still be edited, and each change is published again.</li>
        </ul>
      </div>
      <div class="actions">
        <button type="button" id="publish-confirm">
          Publish
        </button>
        <button type="button" class="secondary" id="publish-cancel">
          Cancel
        </button>
      </div>
    </dialog>
  );
}

/** The whole form; the deposit script reads `#deposit-data` and drives everything through the REST API. */
export function DepositForm({ view }: { view: DepositView }) {
  const draft = view.draft;
  const doi = draft?.pids?.doi?.identifier;
  const data = { draft, doisEnabled: view.doisEnabled, firstCreator: view.firstCreator, choices: view.choices };
  const metadata: Json = draft?.metadata ?? {};
  const defaults = { today: view.today, siteName: view.siteName, doisEnabled: view.doisEnabled };
  const inReview = draft?.parent?.review?.status === "submitted";
  return (
    <form id="deposit" class="deposit" novalidate>
      <script type="application/json" id="deposit-data" dangerouslySetInnerHTML={{ __html: jsonData(data) }} />
      <div id="deposit-errors" class="notice error" tabindex={-1} hidden />
      <FilesSection draft={draft} storage={view.storage} />
      <BasicPart draft={draft} choices={view.choices} defaults={defaults} />
      <RecommendedPart draft={draft} defaults={defaults} />
      <FundingPart />
      <IdentifierParts metadata={metadata} />
      <CustomFieldParts customFields={draft?.custom_fields ?? {}} />
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
        {/* While a community reviews the draft, its outcome publishes it (or not): no Publish, no Delete. */}
        <button type="button" id="publish" hidden={inReview}>
          Publish
        </button>
        <button type="button" class="danger" id="delete-draft" hidden={!draft || draft.status === "published" || inReview}>
          Delete draft
        </button>
      </div>
      <p id="deposit-status" role="status" aria-live="polite" />
      <PublishDialog view={view} />
    </form>
  );
}
