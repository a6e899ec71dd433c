// The community form (new community; settings): its fields, the community body it sends to the
// communities service, and the service's field errors shown next to their fields.
import type { FieldError } from "../../core/errors";
import type { Child } from "../jsx-runtime";

type Json = Record<string, any>;

export interface CommunityFormValues {
  slug: string;
  title: string;
  description: string;
  type: string;
  website: string;
  visibility: string;
  members_visibility: string;
  member_policy: string;
  review_policy: string;
  curation_policy: string;
  page: string;
}

/** The service's error fields -> the form's field names. */
const FIELD_OF: Record<string, keyof CommunityFormValues> = {
  slug: "slug",
  "metadata.title": "title",
  "metadata.description": "description",
  "metadata.type": "type",
  "metadata.type.id": "type",
  "metadata.website": "website",
  "access.visibility": "visibility",
  "access.members_visibility": "members_visibility",
  "access.member_policy": "member_policy",
  // The form sends the record policy that goes with its review policy choice.
  "access.record_policy": "review_policy",
  "access.record_submission_policy": "review_policy",
  "access.review_policy": "review_policy",
  "metadata.curation_policy": "curation_policy",
  "metadata.page": "page",
};

const text = (v: unknown) => (typeof v === "string" ? v : "");

/** A new community's defaults: public with its members listed, anyone may ask to join, members' records go in without review (the spec's `record_policy: open`). */
export const NEW_COMMUNITY: CommunityFormValues = {
  slug: "",
  title: "",
  description: "",
  type: "",
  website: "",
  visibility: "public",
  members_visibility: "public",
  member_policy: "open",
  review_policy: "members",
  curation_policy: "",
  page: "",
};

export function valuesOf(community: Json): CommunityFormValues {
  const m = (community.metadata ?? {}) as Json;
  return {
    slug: text(community.slug),
    title: text(m.title),
    description: text(m.description),
    type: text(m.type?.id),
    website: text(m.website),
    visibility: text(community.access?.visibility),
    members_visibility: text(community.access?.members_visibility),
    member_policy: text(community.access?.member_policy),
    review_policy: text(community.access?.review_policy),
    curation_policy: text(m.curation_policy),
    page: text(m.page),
  };
}

export function valuesFromForm(form: URLSearchParams): CommunityFormValues {
  const get = (name: string) => (form.get(name) ?? "").trim();
  return {
    slug: get("slug"),
    title: get("title"),
    description: get("description"),
    type: get("type"),
    website: get("website"),
    visibility: get("visibility"),
    members_visibility: get("members_visibility"),
    member_policy: get("member_policy"),
    review_policy: get("review_policy"),
    curation_policy: get("curation_policy"),
    page: get("page"),
  };
}

/**
 * The body for createCommunity / updateCommunity. An update replaces the whole metadata, so the
 * current community's fields the form does not show (organisations) are sent back as they are;
 * an emptied field is left out (the service refuses blank strings).
 */
export function bodyOf(values: CommunityFormValues, current?: Json, fields: (keyof CommunityFormValues)[] = ["title", "description", "type", "website"]): Json {
  const metadata: Json = { ...((current?.metadata ?? {}) as Json) };
  for (const field of fields) {
    const value = values[field];
    if (!value) delete metadata[field];
    else metadata[field] = field === "type" ? { id: value } : value;
  }
  // The review policy decides what skips review; the spec's record_policy says the same in two values.
  const recordPolicy = values.review_policy ? (values.review_policy === "closed" ? "closed" : "open") : undefined;
  const access = {
    visibility: values.visibility || undefined,
    members_visibility: values.members_visibility || undefined,
    member_policy: values.member_policy || undefined,
    record_policy: recordPolicy,
    review_policy: values.review_policy || undefined,
  };
  return { slug: current ? current.slug : values.slug, access, metadata };
}

/** Errors by form field; those of no field of the form under "". */
export function errorsByField(errors: FieldError[] | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of errors ?? []) {
    const field = FIELD_OF[e.field] ?? "";
    out.set(field, [...(out.get(field) ?? []), ...e.messages.map((m) => (field ? m : `${e.field || "body"}: ${m}`))]);
  }
  return out;
}

function ErrorText({ id, messages }: { id: string; messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <p class="field-error" id={id}>
      {messages.join(" ")}
    </p>
  );
}

/** aria-invalid and aria-describedby of a control with a hint and an error. */
const describedBy = (id: string, errors: Map<string, string[]>, field: string, hint: boolean) => {
  const ids = [hint ? `${id}-hint` : "", errors.get(field)?.length ? `${id}-error` : ""].filter(Boolean);
  return { "aria-invalid": errors.get(field)?.length ? "true" : undefined, "aria-describedby": ids.length ? ids.join(" ") : undefined };
};

function Choice({ name, legend, value, options, errors }: { name: string; legend: string; value: string; options: [string, string][]; errors: Map<string, string[]> }) {
  return (
    <fieldset class="choices" aria-describedby={errors.get(name)?.length ? `f-${name}-error` : undefined}>
      <legend>{legend}</legend>
      {options.map(([v, label]) => (
        <label class="choice">
          <input id={`f-${name}-${v}`} type="radio" name={name} value={v} checked={value === v} /> {label}
        </label>
      ))}
      <ErrorText id={`f-${name}-error`} messages={errors.get(name)} />
    </fieldset>
  );
}

export interface CommunityFormProps {
  action: string;
  csrf: string;
  values: CommunityFormValues;
  errors?: FieldError[];
  /** The communitytypes vocabulary: [id, title]. */
  types: [string, string][];
  /** The new-community form asks for the identifier; settings edit the policy texts and send the revision. */
  mode: "new" | "settings";
  revision?: number;
  submit: string;
  children?: Child;
}

export function CommunityForm(props: CommunityFormProps) {
  const { values } = props;
  const errors = errorsByField(props.errors);
  const general = errors.get("");
  return (
    <form class="card community-form" method="post" action={props.action} novalidate>
      <input type="hidden" name="csrf" value={props.csrf} />
      {props.revision !== undefined ? <input type="hidden" name="revision" value={String(props.revision)} /> : null}
      {general?.length ? (
        <ul class="field-error">
          {general.map((m) => (
            <li>{m}</li>
          ))}
        </ul>
      ) : null}
      {props.mode === "new" ? (
        <>
          <label for="f-slug">Identifier (required)</label>
          <input id="f-slug" name="slug" type="text" required maxlength={100} autocomplete="off" value={values.slug} {...describedBy("f-slug", errors, "slug", true)} />
          <p class="hint muted" id="f-slug-hint">
            Letters, numbers and dashes; the community's address is /communities/&lt;identifier&gt;.
          </p>
          <ErrorText id="f-slug-error" messages={errors.get("slug")} />
        </>
      ) : null}
      <label for="f-title">Title (required)</label>
      <input id="f-title" name="title" type="text" required maxlength={250} value={values.title} {...describedBy("f-title", errors, "title", false)} />
      <ErrorText id="f-title-error" messages={errors.get("title")} />
      <label for="f-description">Description</label>
      <textarea id="f-description" name="description" maxlength={2000} {...describedBy("f-description", errors, "description", true)}>
        {values.description}
      </textarea>
      <p class="hint muted" id="f-description-hint">
        Plain text, shown in listings and at the top of the community's page.
      </p>
      <ErrorText id="f-description-error" messages={errors.get("description")} />
      <label for="f-type">Type</label>
      <select id="f-type" name="type" {...describedBy("f-type", errors, "type", false)}>
        <option value="" selected={!values.type}>
          Not given
        </option>
        {props.types.map(([id, title]) => (
          <option value={id} selected={values.type === id}>
            {title}
          </option>
        ))}
      </select>
      <ErrorText id="f-type-error" messages={errors.get("type")} />
      <label for="f-website">Website</label>
      <input id="f-website" name="website" type="url" value={values.website} placeholder="https://" {...describedBy("f-website", errors, "website", false)} />
      <ErrorText id="f-website-error" messages={errors.get("website")} />
      <Choice
        name="visibility"
        legend="Visibility"
        value={values.visibility}
        errors={errors}
        options={[
          ["public", "Public: anyone can see the community and its public records"],
          ["restricted", "Restricted: only its members can see it"],
        ]}
      />
      <Choice
        name="members_visibility"
        legend="Who can see the members"
        value={values.members_visibility}
        errors={errors}
        options={[
          ["public", "Anyone who can see the community sees the members who chose to be listed"],
          ["restricted", "Only its members"],
        ]}
      />
      <Choice
        name="member_policy"
        legend="Who can ask to join"
        value={values.member_policy}
        errors={errors}
        options={[
          ["open", "Anyone signed in can ask to become a member"],
          ["closed", "Members join only when invited"],
        ]}
      />
      <Choice
        name="review_policy"
        legend="Records included without review"
        value={values.review_policy}
        errors={errors}
        options={[
          ["members", "Members' records are included without review"],
          ["open", "Records of curators, managers and owners are included without review; other members' are reviewed"],
          ["closed", "Every record is reviewed by the curators"],
        ]}
      />
      {props.mode === "settings" ? (
        <>
          <label for="f-curation_policy">Curation policy</label>
          <textarea id="f-curation_policy" name="curation_policy" maxlength={2000} {...describedBy("f-curation_policy", errors, "curation_policy", true)}>
            {values.curation_policy}
          </textarea>
          <p class="hint muted" id="f-curation_policy-hint">
            HTML allowed (paragraphs, lists, links, emphasis); anything else is removed when saved.
          </p>
          <ErrorText id="f-curation_policy-error" messages={errors.get("curation_policy")} />
          <label for="f-page">About page</label>
          <textarea id="f-page" name="page" maxlength={2000} {...describedBy("f-page", errors, "page", true)}>
            {values.page}
          </textarea>
          <p class="hint muted" id="f-page-hint">
            HTML allowed, as above.
          </p>
          <ErrorText id="f-page-error" messages={errors.get("page")} />
        </>
      ) : null}
      {props.children}
      <div class="actions">
        <button type="submit">{props.submit}</button>
      </div>
    </form>
  );
}
