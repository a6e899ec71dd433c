// The DOI badge on a record's landing page: the image (served by badge.ts) linked to the DOI, and
// the Markdown and HTML that show it in a README or on a web page, each with a Copy button
// (record.js; without scripts the text is selected by hand).
import { doiBadgePath } from "./badge";

export interface DoiBadgeProps {
  doi: string;
  /** The DOI's resolver URL (the record's `links.doi`). */
  doiUrl: string;
  /** The site's address: the snippets are pasted elsewhere, so their image URL is absolute. */
  baseUrl: string;
}

/** The snippets people paste, as Zenodo gives them. */
export function badgeSnippets({ doi, doiUrl, baseUrl }: DoiBadgeProps) {
  const image = baseUrl + doiBadgePath(doi);
  return {
    markdown: `[![DOI](${image})](${doiUrl})`,
    html: `<a href="${doiUrl}"><img src="${image}" alt="DOI"></a>`,
  };
}

function Snippet({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div class="snippet">
      <label for={id}>{label}</label>
      <textarea id={id} readonly rows={3} spellcheck="false">
        {value}
      </textarea>
      <button type="button" class="secondary small copy" data-copy={id} hidden>
        Copy {label}
      </button>
    </div>
  );
}

export function DoiBadge(props: DoiBadgeProps) {
  const { doi, doiUrl } = props;
  const snippets = badgeSnippets(props);
  return (
    <section class="card doi-badge" aria-labelledby="doi-heading">
      <h2 id="doi-heading">DOI</h2>
      <p>
        <a href={doiUrl}>
          <img src={doiBadgePath(doi)} alt={`DOI: ${doi}`} height="20" />
        </a>
      </p>
      <details>
        <summary>Show this badge elsewhere</summary>
        <Snippet id="badge-markdown" label="Markdown" value={snippets.markdown} />
        <Snippet id="badge-html" label="HTML" value={snippets.html} />
        <p class="sr-only" role="status" id="copy-status"></p>
      </details>
    </section>
  );
}
