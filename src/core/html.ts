// Text from users: unicode clean-up, HTML sanitising with InvenioRDM's allow-lists (descriptions,
// messages, conditions), and sanitized HTML as plain text for targets that are not HTML (JSON, XML, search).
import type sanitizeHtmlType from "sanitize-html";
import { lazy } from "./lazy";

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/**
 * Plain text from sanitized HTML: script/style content and tags dropped, entities decoded, trimmed.
 * `separateWords` puts a space where a tag was, so `<p>a</p><p>b</p>` stays two words (search).
 */
export function stripHtml(html: string, options: { separateWords?: boolean } = {}): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<[^>]*>/g, options.separateWords ? " " : "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] !== "#") return NAMED_ENTITIES[code.toLowerCase()] ?? whole;
      const n = code[1] === "x" || code[1] === "X" ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
    })
    .trim();
}

// Characters XML 1.0 cannot carry: exports (DataCite, OAI-PMH) must never meet them.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * marshmallow-utils' SanitizedUnicode: trimmed, without characters invalid in XML and without
 * zero-width spaces. (Its ftfy mojibake repair is left out: it guesses, and guesses can be wrong.)
 */
export function cleanText(value: string): string {
  return value
    .replace(NOT_XML, "")
    .replace(/\u200b/g, "")
    .trim();
}

/** invenio-config's ALLOWED_HTML_TAGS, the default InvenioRDM sanitises descriptions with. */
const ALLOWED_HTML_TAGS = [
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
const ALLOWED_HTML_ATTRS: Record<string, string[]> = {
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
