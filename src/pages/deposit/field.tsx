// A deposit form field's wrapper and the wording every date field shares.
import type { Child } from "../jsx-runtime";

/** The one hint of every field that takes an EDTF date (publication date, the dates list). */
export const EDTF_HINT = "YYYY-MM-DD, YYYY-MM or YYYY (or a range A/B)";

/** A field's wrapper: the dotted path the REST API names in `errors`, and where its messages go. */
export function Field({ path, id, children, hint }: { path: string; id: string; children?: Child; hint?: string }) {
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

/** A collapsible part of the form (InvenioRDM's accordion), open when it is asked to be or holds values. */
export function Part({ id, title, open, children }: { id: string; title: string; open: boolean; children?: Child }) {
  return (
    <details class="card part" id={id} open={open}>
      <summary>
        <h2>{title}</h2>
      </summary>
      {children}
    </details>
  );
}

/** A repeating list the deposit script fills: its rows' path and noun, and the button that adds one. */
export function Rows({ id, base, noun, add, addLabel }: { id: string; base: string; noun: string; add: string; addLabel: string }) {
  return (
    <Field path={base} id={id}>
      <ol class="plain rows" id={id} data-base={base} data-noun={noun} />
      <button type="button" class="secondary" id={add}>
        {addLabel}
      </button>
    </Field>
  );
}
