// Formatted citations (`text/x-bibliography`, `?style=&locale=`): the CSL JSON item rendered by
// citeproc-js with the embedded styles, as InvenioRDM's StringCitationSerializer does with citeproc-py.
import type CSLModule from "citeproc";
import { setBounded } from "../core/bounded";
import { badRequest } from "../core/errors";
import type { JsonObject } from "../core/json";
import { cslItem } from "./csl";
import { CSL_LOCALES, CSL_STYLES } from "./csl-files";
import type { ExportFormat } from "./types";
import { lazy } from "../core/lazy";

export const CITATION_STYLES = Object.keys(CSL_STYLES);
export const DEFAULT_STYLE = "apa";
export const DEFAULT_LOCALE = "en-US";

export const citationFormat: ExportFormat = {
  id: "citation",
  label: "Citation (text)",
  mediaTypes: ["text/x-bibliography"],
  extension: "txt",
  contentType: "text/plain",
  render(record, ctx) {
    const style = citationStyle(ctx.params?.style);
    const locale = citationLocale(ctx.params?.locale);
    return formatCitation(citedItem(cslItem(record, ctx)), style, locale);
  },
};

// No shipped style shows more than 20 names before "et al." (APA 7, the widest: from 21 names on,
// the first 19, an ellipsis, the last). Passing the first 20 and the last keeps every style's
// output as it is and spares citeproc the names it would drop: 50 authors cost what 21 do.
const SHOWN_NAMES = 20;

/**
 * The CSL item as citeproc needs it: the names a style can show, and no abstract (no shipped
 * style prints it, and citeproc would still parse the longest text of the record).
 */
export function citedItem(item: JsonObject): JsonObject {
  const { abstract: _abstract, ...cited } = item;
  const authors: unknown[] = item.author ?? [];
  if (authors.length > SHOWN_NAMES + 1) cited.author = [...authors.slice(0, SHOWN_NAMES), authors[authors.length - 1]];
  return cited;
}

/** The style named by `?style=` (default apa); an unknown one is a 400 naming those offered. */
export function citationStyle(value: string | undefined): string {
  if (value === undefined || value === "") return DEFAULT_STYLE;
  if (Object.hasOwn(CSL_STYLES, value)) return value; // not `in`: "constructor" is no style
  throw badRequest(`Citation style '${value}' is not available. Available styles: ${CITATION_STYLES.join(", ")}.`);
}

/** The locale of `?locale=`: a tag (`de-DE`, `de_de`) or a bare language (`de`); unknown is a 400. */
export function citationLocale(value: string | undefined): { tag: string; explicit: boolean } {
  if (value === undefined || value === "") return { tag: DEFAULT_LOCALE, explicit: false };
  const wanted = value.replace("_", "-").toLowerCase();
  const tags = Object.keys(CSL_LOCALES);
  const tag = tags.find((t) => t.toLowerCase() === wanted) ?? tags.find((t) => t.toLowerCase().startsWith(`${wanted}-`));
  if (tag) return { tag, explicit: true };
  throw badRequest(`Citation locale '${value}' is not available. Available locales: ${tags.join(", ")}.`);
}

// Building an engine parses the style (tens of ms); rendering with a built one is fast. Engines
// are kept per style and locale (a few at most) and fed the one item through `items`.
const MAX_ENGINES = 12;
// Loaded on first use: the citation engine costs ~10 MB that a server nobody asks for citations never needs.
const CSL = lazy(() => require("citeproc") as typeof CSLModule);

const engines = new Map<string, InstanceType<typeof CSLModule.Engine>>();
const items = new Map<string, Record<string, unknown>>();
let renders = 0;
const sys = {
  retrieveLocale: (lang: string) => CSL_LOCALES[lang],
  retrieveItem: (id: string) => items.get(id),
};

/**
 * A style as a bibliography of one entry needs it: without its sort keys and disambiguation
 * options, which cannot change a lone entry and are half of citeproc's work per render.
 */
export function singleEntryStyle(xml: string): string {
  return xml.replace(/<sort>[\s\S]*?<\/sort>/g, "").replace(/\s(?:disambiguate-add-[a-z-]+|givenname-disambiguation-rule)="[^"]*"/g, "");
}

function engineFor(style: string, locale: { tag: string; explicit: boolean }) {
  const key = `${style}|${locale.tag}|${locale.explicit}`;
  let engine = engines.get(key);
  if (!engine) {
    // A style's own default-locale (Harvard's en-GB) wins unless the caller asked for a locale.
    engine = new (CSL().Engine)(sys, singleEntryStyle(CSL_STYLES[style]!), locale.tag, locale.explicit);
    setBounded(engines, key, engine, MAX_ENGINES);
  }
  return engine;
}

// The same citation is asked for again and again (a landing page's citation box, each style a
// reader tries): the last few hundred are kept, keyed by their whole input, so an edit is a miss.
const MAX_REMEMBERED = 500;
const remembered = new Map<string, string>();

/** One bibliography entry as InvenioRDM returns it: HTML inline markup, no wrapping block, spaces collapsed. */
export function formatCitation(item: Record<string, unknown>, style: string, locale: { tag: string; explicit: boolean }): string {
  const key = `${style}|${locale.tag}|${locale.explicit}|${JSON.stringify(item)}`;
  let text = remembered.get(key);
  if (text === undefined) {
    text = renderEntry(item, style, locale);
  } else remembered.delete(key); // set again below: most recently used last
  setBounded(remembered, key, text, MAX_REMEMBERED);
  return text;
}

function renderEntry(item: Record<string, unknown>, style: string, locale: { tag: string; explicit: boolean }): string {
  const engine = engineFor(style, locale);
  // A new id per render: citeproc keeps an item it has seen by id, and would cite an edited record as it was.
  const id = `item-${++renders}`;
  items.set(id, { ...item, id });
  try {
    engine.updateItems([id]);
    const bibliography = engine.makeBibliography();
    const entry = bibliography ? bibliography[1].join("") : "";
    return entry
      .replace(/<\/?div[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  } finally {
    items.delete(id);
  }
}
