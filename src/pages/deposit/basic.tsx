// The deposit form's "Basic information" and "Recommended information" parts, as InvenioRDM's
// deposit form groups them. Plain fields are rendered with the draft's values; the repeating rows
// and look-ups (containers here) are filled by deposit-metadata.js.
import type { Choice, DepositChoices } from "./choices";
import { EDTF_HINT, Field, Part, Rows } from "./field";

type Json = Record<string, any>;

/** The free keywords (subjects without a vocabulary id), comma-separated. */
const keywordsOf = (metadata: Json) =>
  ((metadata.subjects ?? []) as Json[])
    .filter((s) => !s.id)
    .map((s) => String(s.subject ?? ""))
    .join(", ");

const lines = (value: unknown) => (Array.isArray(value) ? value.map(String).join("\n") : "");

export function ResourceTypeSelect({ id, selected, choices, placeholder }: { id: string; selected: string; choices: Choice[]; placeholder: string }) {
  return (
    <select id={id}>
      <option value="" selected={!selected}>
        {placeholder}
      </option>
      {choices.map((t) => (
        <option value={t.id} selected={t.id === selected}>
          {t.title}
        </option>
      ))}
    </select>
  );
}

export interface MetadataDefaults {
  today: string;
  siteName: string;
  doisEnabled: boolean;
}

export function BasicPart({ draft, choices, defaults }: { draft: Json | null; choices: DepositChoices; defaults: MetadataDefaults }) {
  const metadata: Json = draft?.metadata ?? {};
  const date = draft ? String(metadata.publication_date ?? "") : defaults.today;
  return (
    <Part id="part-basic" title="Basic information" open={true}>
      <Field path="metadata.resource_type" id="resource-type">
        <label for="resource-type">Resource type (required)</label>
        <ResourceTypeSelect id="resource-type" selected={String(metadata.resource_type?.id ?? "")} choices={choices.resourcetypes} placeholder="Choose a resource type" />
      </Field>
      <Field path="metadata.title" id="title">
        <label for="title">Title (required)</label>
        <input id="title" type="text" value={String(metadata.title ?? "")} />
      </Field>
      <Rows id="title-list" base="metadata.additional_titles" noun="Additional title" add="add-title" addLabel="Add a title in another language or a subtitle" />
      <Field path="metadata.publication_date" id="publication-date" hint={EDTF_HINT}>
        <label for="publication-date">Publication date (required)</label>
        <input id="publication-date" type="text" inputmode="numeric" value={date} aria-describedby="publication-date-hint" />
      </Field>
      <Field path="metadata.creators" id="creators">
        <h3 id="creators-heading">Creators (required)</h3>
        <ol class="plain rows" id="creator-list" data-base="metadata.creators" data-noun="Creator" />
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
      <Rows id="description-list" base="metadata.additional_descriptions" noun="Additional description" add="add-description" addLabel="Add a description (methods, notes…)" />
      <Field path="metadata.rights" id="rights">
        <div class="chips-field" id="licences" />
      </Field>
      <Field path="metadata.copyright" id="copyright" hint="For example: © 2024 The authors">
        <label for="copyright">Copyright</label>
        <input id="copyright" type="text" value={String(metadata.copyright ?? "")} aria-describedby="copyright-hint" />
      </Field>
    </Part>
  );
}

export function RecommendedPart({ draft, defaults }: { draft: Json | null; defaults: MetadataDefaults }) {
  const metadata: Json = draft?.metadata ?? {};
  const publisher = draft ? String(metadata.publisher ?? "") : defaults.siteName;
  return (
    <Part id="part-recommended" title="Recommended information" open={true}>
      <Rows id="contributor-list" base="metadata.contributors" noun="Contributor" add="add-contributor" addLabel="Add a contributor" />
      <Field path="metadata.subjects" id="keywords" hint="Separate keywords with commas.">
        <label for="keywords">Keywords</label>
        <input id="keywords" type="text" value={keywordsOf(metadata)} aria-describedby="keywords-hint" />
      </Field>
      <Field path="metadata.subjects" id="subjects">
        <div class="chips-field" id="subjects" />
      </Field>
      <Field path="metadata.languages" id="languages">
        <div class="chips-field" id="languages" />
      </Field>
      <Rows id="date-list" base="metadata.dates" noun="Date" add="add-date" addLabel="Add a date (collected, valid, withdrawn…)" />
      <Field path="metadata.version" id="version" hint="For example: v1.0.2">
        <label for="version">Version</label>
        <input id="version" type="text" value={String(metadata.version ?? "")} aria-describedby="version-hint" />
      </Field>
      <Field path="metadata.publisher" id="publisher">
        <label for="publisher">Publisher{defaults.doisEnabled ? " (required for a DOI)" : ""}</label>
        <input id="publisher" type="text" value={publisher} />
      </Field>
      <Field path="metadata.sizes" id="sizes" hint="One per line, for example: 2 files, 1 GB.">
        <label for="sizes">Sizes</label>
        <textarea id="sizes" rows={2} aria-describedby="sizes-hint">
          {lines(metadata.sizes)}
        </textarea>
      </Field>
      <Field path="metadata.formats" id="formats" hint="One per line, for example: text/csv.">
        <label for="formats">Formats</label>
        <textarea id="formats" rows={2} aria-describedby="formats-hint">
          {lines(metadata.formats)}
        </textarea>
      </Field>
    </Part>
  );
}
