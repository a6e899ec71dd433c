// Small form parts the pages share: field errors, the session's CSRF field, and a button that posts.
import type { FieldError } from "../core/errors";
import type { Child } from "./jsx-runtime";
import type { PageContext } from "./layout";

/** A field's messages from a service's 400, under the field (its `id` is the field's aria-describedby). */
export function FieldErrors({ errors, field, id }: { errors?: FieldError[]; field: string; id: string }) {
  const messages = errors?.filter((e) => e.field === field).flatMap((e) => e.messages) ?? [];
  return messages.length ? (
    <p class="field-error" id={id}>
      {messages.join(" ")}
    </p>
  ) : null;
}

/** The session's CSRF token, which every signed-in form carries (pages/http.ts checkCsrf). */
export const CsrfField = ({ ctx }: { ctx: PageContext }) => <input type="hidden" name="csrf" value={ctx.actor.csrf ?? ""} />;

/** A one-button form posting to `action`, with the CSRF field. */
export function PostButton({ ctx, action, label, secondary = false }: { ctx: PageContext; action: string; label: string; secondary?: boolean }) {
  return (
    <form method="post" action={action}>
      <CsrfField ctx={ctx} />
      <button type="submit" class={secondary ? "secondary" : undefined}>
        {label}
      </button>
    </form>
  );
}

/** Edit a published record, or start a new version of it (the deposit pages' routes). */
export const EditButtons = ({ ctx, id }: { ctx: PageContext; id: string }) => (
  <div class="actions">
    <PostButton ctx={ctx} action={`/uploads/${id}/edit`} label="Edit" />
    <PostButton ctx={ctx} action={`/uploads/${id}/new-version`} label="New version" secondary />
  </div>
);

interface TextFieldProps {
  /** The service's field name its errors are reported under (and the input's `name` unless `name` is given). */
  field: string;
  name?: string;
  label: string;
  type?: "text" | "email" | "password";
  value?: string;
  errors?: FieldError[];
  autocomplete?: string;
  required?: boolean;
  maxlength?: number;
  /** A line under the label saying what is expected (an example to type may be marked as <code>). */
  hint?: Child;
  /** The id of a <datalist> of suggestions. */
  list?: string;
}

/** A labelled input with its hint and its messages from the service, tied to it for screen readers. */
export function TextField({ field, name, label, type = "text", value, errors, autocomplete, required, maxlength, hint, list }: TextFieldProps) {
  const id = `field-${field.replace(/[^a-zA-Z0-9_-]/g, "-")}`;
  const invalid = errors?.some((e) => e.field === field) ?? false;
  const described = [hint ? `${id}-hint` : "", invalid ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <>
      <label for={id}>{label}</label>
      {hint ? (
        <p class="muted hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={name ?? field}
        type={type}
        value={type === "password" ? undefined : (value ?? "")}
        autocomplete={autocomplete}
        required={required}
        maxlength={maxlength}
        list={list}
        aria-invalid={invalid ? "true" : undefined}
        aria-describedby={described || undefined}
      />
      <FieldErrors errors={errors} field={field} id={`${id}-error`} />
    </>
  );
}
