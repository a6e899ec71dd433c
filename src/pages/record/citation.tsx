// The citation box (the formatted citation in a chosen CSL style, a GET form that record.js turns
// into a fetch from the record API) and the links to every export format.
import { CITATION_STYLES, DEFAULT_STYLE } from "../../exports/citation";
import { EXPORT_FORMATS } from "../../exports/registry";
import type { RecordUrls } from "./links";

/** The styles as people know them, in the exports module's order. */
const STYLE_NAMES: Record<string, string> = {
  apa: "APA",
  "harvard-cite-them-right": "Harvard",
  "modern-language-association": "MLA",
  vancouver: "Vancouver",
  "chicago-fullnote-bibliography": "Chicago",
  ieee: "IEEE",
};

/** The style of `?style=`, or the default when it names none of the styles. */
export const chosenStyle = (value: string | null): string => (value && CITATION_STYLES.includes(value) ? value : DEFAULT_STYLE);

export interface CitationProps {
  /** This page's path (the form reloads it with `?style=`). */
  action: string;
  /** The record API's URL (with a secret link's token) that record.js fetches `?style=` from. */
  api: string;
  token?: string;
  style: string;
  /** The citation as plain text. */
  text: string;
}

export function CitationBox({ action, api, token, style, text }: CitationProps) {
  return (
    <section class="card" aria-labelledby="citation-heading">
      <h2 id="citation-heading">Cite as</h2>
      <p id="citation-text" class="citation" aria-live="polite">
        {text}
      </p>
      <form id="citation-form" method="get" action={action} data-api={api}>
        {token ? <input type="hidden" name="token" value={token} /> : null}
        <label for="citation-style">Style</label>
        <div class="actions">
          <select id="citation-style" name="style">
            {CITATION_STYLES.map((s) => (
              <option value={s} selected={s === style}>
                {STYLE_NAMES[s] ?? s}
              </option>
            ))}
          </select>
          <button type="submit" class="secondary">
            Show
          </button>
        </div>
      </form>
    </section>
  );
}

const withStyle = (url: string, style: string) => `${url}${url.includes("?") ? "&" : "?"}style=${encodeURIComponent(style)}`;

export function ExportLinks({ urls, style }: { urls: RecordUrls; style: string }) {
  return (
    <section class="card" aria-labelledby="export-heading">
      <h2 id="export-heading">Export</h2>
      <ul class="plain exports">
        {EXPORT_FORMATS.map((f) => (
          <li>
            {f.id === "citation" ? (
              <a href={withStyle(urls.export(f.id), style)} data-citation-export="style">
                {f.label}
              </a>
            ) : (
              <a href={urls.export(f.id)}>{f.label}</a>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
