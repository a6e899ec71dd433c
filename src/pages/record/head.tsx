// A landing page's head: the canonical URL, Highwire Press `citation_*` tags (Google Scholar's
// inclusion guidelines), a description, and the record's Schema.org JSON-LD (the json-ld export).
import { list, type JsonObject } from "../../core/json";
import { stripHtml } from "../../core/html";
import { previewKind } from "./preview";

type Json = JsonObject;

/** Google Scholar: `citation_publication_date` is a full date as YYYY/MM/DD, or the year alone. */
export function scholarDate(edtf: unknown): string | null {
  if (typeof edtf !== "string") return null;
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(edtf.trim());
  if (!m) return null;
  return m[3] ? `${m[1]}/${m[2]}/${m[3]}` : m[1]!;
}

/** JSON inside `<script>`: `<` escaped, so no `</script>` or `<!--` in a value ends the element early. */
export const scriptJson = (json: string) => json.replace(/</g, "\\u003c");

const DESCRIPTION_MAX = 300;

/** The description as the plain text of a `<meta name="description">`, cut at a word. */
function shortDescription(html: unknown): string | null {
  const text = typeof html === "string" ? stripHtml(html, { separateWords: true }).replace(/\s+/g, " ").trim() : "";
  if (!text) return null;
  if (text.length <= DESCRIPTION_MAX) return text;
  const cut = text.slice(0, DESCRIPTION_MAX);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), DESCRIPTION_MAX - 40))}…`;
}

export interface HeadInput {
  record: Json;
  /** The landing page's absolute URL (`links.self_html`). */
  canonical: string;
  /** The record's JSON-LD (the json-ld export as the caller may see it); null for a draft preview. */
  jsonLd: string | null;
  /** The site's address, for absolute file URLs. */
  baseUrl: string;
}

/** The first PDF everyone may download (open access only), as an absolute URL: `citation_pdf_url`. */
function publicPdfUrl(record: Json, baseUrl: string): string | null {
  if (record.access?.status !== "open") return null;
  const entries = Object.values((record.files?.entries ?? {}) as Record<string, Json>);
  const pdf = entries.find((e) => previewKind(e.mimetype) === "pdf");
  const content = pdf?.links?.content;
  if (typeof content !== "string") return null;
  return content.startsWith("/") ? baseUrl + content : content;
}

/** The head elements of a published record's landing page. */
export function RecordHead({ record, canonical, jsonLd, baseUrl }: HeadInput) {
  const metadata: Json = record.metadata ?? {};
  const tag = (name: string, content: unknown) => (typeof content === "string" && content.trim() ? <meta name={name} content={content.trim()} /> : null);
  const keywords = list(metadata.subjects)
    .map((s) => s?.subject)
    .filter((s): s is string => typeof s === "string" && s.trim() !== "");
  return (
    <>
      <link rel="canonical" href={canonical} />
      {/* A restricted record's page is seen only by those given access (a secret link may be passed on): not for search engines. */}
      {record.access?.record === "restricted" ? <meta name="robots" content="noindex" /> : null}
      {tag("description", shortDescription(metadata.description))}
      {tag("citation_title", metadata.title)}
      {list(metadata.creators).map((c) => tag("citation_author", c?.person_or_org?.name))}
      {tag("citation_publication_date", scholarDate(metadata.publication_date))}
      {tag("citation_doi", record.pids?.doi?.identifier)}
      {tag("citation_publisher", metadata.publisher)}
      {keywords.map((k) => tag("citation_keywords", k))}
      {tag("citation_language", list(metadata.languages)[0]?.id)}
      {tag("citation_pdf_url", publicPdfUrl(record, baseUrl))}
      {tag("citation_abstract_html_url", canonical)}
      {jsonLd ? <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: scriptJson(jsonLd) }} /> : null}
    </>
  );
}
