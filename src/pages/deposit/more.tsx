// The deposit form's further parts: funding, then, folded unless they hold values, alternate
// identifiers, related works, references, locations, and the journal, imprint, conference and
// thesis custom fields (records/metadata/custom-fields.ts lists their sub-fields).
import { CUSTOM_FIELDS } from "../../records/metadata/custom-fields";
import { Field, Part, Rows } from "./field";

type Json = Record<string, any>;

const has = (value: unknown) => (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null && value !== "");

/** Open like the basic parts: funding is asked of most deposits (InvenioRDM shows it unfolded too). */
export function FundingPart() {
  return (
    <Part id="part-funding" title="Funding" open={true}>
      <Rows id="funding-list" base="metadata.funding" noun="Funding" add="add-funding" addLabel="Add funding" />
    </Part>
  );
}

export function IdentifierParts({ metadata }: { metadata: Json }) {
  return (
    <>
      <Part id="part-identifiers" title="Alternate identifiers" open={has(metadata.identifiers)}>
        <p class="muted">Other identifiers of this same work (a handle, an arXiv id, an ISBN…).</p>
        <Rows id="identifier-list" base="metadata.identifiers" noun="Alternate identifier" add="add-identifier" addLabel="Add an identifier" />
      </Part>
      <Part id="part-related" title="Related works" open={has(metadata.related_identifiers)}>
        <p class="muted">Works this upload cites, supplements, is part of…, by their identifier.</p>
        <Rows id="related-list" base="metadata.related_identifiers" noun="Related work" add="add-related" addLabel="Add a related work" />
      </Part>
      <Part id="part-references" title="References" open={has(metadata.references)}>
        <Rows id="reference-list" base="metadata.references" noun="Reference" add="add-reference" addLabel="Add a reference" />
      </Part>
      <Part id="part-locations" title="Locations" open={has(metadata.locations?.features)}>
        <Rows id="location-list" base="metadata.locations.features" noun="Location" add="add-location" addLabel="Add a location" />
      </Part>
    </>
  );
}

/** Labels of the custom fields' sub-fields, in CUSTOM_FIELDS' order. */
const CUSTOM_LABELS: Record<string, { title: string; fields: Record<string, string> }> = {
  "journal:journal": { title: "Journal", fields: { title: "Journal title", volume: "Volume", issue: "Issue", pages: "Journal pages", issn: "ISSN" } },
  "imprint:imprint": {
    title: "Imprint (book, report, chapter)",
    fields: { title: "Book or report title", isbn: "ISBN", pages: "Pages in the book", place: "Place of publication", edition: "Edition" },
  },
  "meeting:meeting": {
    title: "Conference",
    fields: {
      title: "Conference title",
      acronym: "Acronym",
      dates: "Conference dates",
      place: "Conference place",
      session: "Session",
      session_part: "Part of the session",
      url: "Conference website",
    },
  },
  "thesis:university": { title: "Thesis", fields: { "": "Awarding university" } },
};

/** The DOM id of a custom field's input: `cf-journal-title`, `cf-thesis`. */
export const customFieldId = (key: string, sub: string) => `cf-${key.split(":")[0]}${sub ? `-${sub.replace(/_/g, "-")}` : ""}`;

export function CustomFieldParts({ customFields }: { customFields: Json }) {
  return (
    <>
      {Object.entries(CUSTOM_FIELDS).map(([key, subs]) => {
        const labels = CUSTOM_LABELS[key]!;
        const value: Json | string | undefined = customFields[key];
        const names = subs ?? [""];
        const valueOf = (sub: string) => String((sub ? (value as Json | undefined)?.[sub] : value) ?? "");
        return (
          <Part id={`part-${key.split(":")[0]}`} title={labels.title} open={names.some((sub) => valueOf(sub) !== "")}>
            <div class="custom-field" data-custom={key} data-subfields={subs ? subs.join(" ") : ""}>
              {names.map((sub) => {
                const id = customFieldId(key, sub);
                return (
                  <Field path={`custom_fields.${key}${sub ? `.${sub}` : ""}`} id={id}>
                    <label for={id}>{labels.fields[sub] ?? sub}</label>
                    <input id={id} type={sub === "url" ? "url" : "text"} value={valueOf(sub)} />
                  </Field>
                );
              })}
            </div>
          </Part>
        );
      })}
    </>
  );
}
