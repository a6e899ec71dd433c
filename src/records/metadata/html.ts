// HTML sanitising of descriptions with InvenioRDM's allowed tags and attributes.
import type sanitizeHtmlType from "sanitize-html";
import { cleanText } from "./fields";
import { lazy } from "../../core/lazy";

/** invenio-config's ALLOWED_HTML_TAGS, the default InvenioRDM sanitises descriptions with. */
export const ALLOWED_HTML_TAGS = [
  "a",
  "abbr",
  "acronym",
  "b",
  "blockquote",
  "br",
  "code",
  "div",
  "table",
  "tbody",
  "td",
  "th",
  "tr",
  "em",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "i",
  "li",
  "ol",
  "p",
  "pre",
  "span",
  "strike",
  "strong",
  "sub",
  "sup",
  "u",
  "ul",
];

/** invenio-config's ALLOWED_HTML_ATTRS. */
export const ALLOWED_HTML_ATTRS: Record<string, string[]> = {
  "*": ["class"],
  a: ["href", "title", "name", "class", "rel"],
  abbr: ["title"],
  acronym: ["title"],
};

// Loaded on first use: the library holds ~19 MB that a server which is only read from never needs.
const sanitizer = lazy(() => require("sanitize-html") as typeof sanitizeHtmlType);
const sanitizeHtml = (html: string, opts: sanitizeHtmlType.IOptions) => sanitizer()(html, opts);

const options: sanitizeHtmlType.IOptions = {
  allowedTags: ALLOWED_HTML_TAGS,
  allowedAttributes: ALLOWED_HTML_ATTRS,
  // bleach's default protocols: anything else (javascript:, data:) loses its href.
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  // bleach with strip=True: a disallowed tag goes, its text stays (script/style content is dropped).
  disallowedTagsMode: "discard",
};

/** SanitizedHTML: unicode clean-up, then tags and attributes outside the allow-lists removed, trimmed. */
export function sanitizeDescription(value: string): string {
  return sanitizeHtml(cleanText(value), options).trim();
}
