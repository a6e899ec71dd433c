// The URLs a landing page links to: its own pages, file content and previews (carrying a secret
// link's `?token=`), and identifiers (ORCID, ROR, DOI...) as resolvable links.
import { ownEntry, type JsonObject } from "../../core/json";

/** `a/b c.csv` -> `a/b%20c.csv`: each segment of a file key encoded, the slashes kept (as the files routes read them). */
export const encodeKey = (key: string) => key.split("/").map(encodeURIComponent).join("/");

/** `?token=…` (or `&token=…`) when the caller came with a secret link, so the next request opens the record too. */
export function withToken(url: string, token: string | undefined): string {
  if (!token) return url;
  return `${url}${url.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`;
}

/** What the page links to for one record (published, or a draft shown with `?preview=1`). */
export interface RecordUrls {
  page(id?: string): string;
  content(key: string): string;
  preview(key: string): string;
  /** A CSV or TSV file's first rows as a table page (record/table-page.tsx). */
  table(key: string): string;
  export(format: string): string;
  /** The record API's URL (`?style=` fetches the citation from it). */
  api(): string;
}

export function recordUrls(id: string, token: string | undefined, isDraft: boolean): RecordUrls {
  const record = `/records/${encodeURIComponent(id)}`;
  const files = `/api/records/${encodeURIComponent(id)}${isDraft ? "/draft" : ""}/files`;
  const draft = isDraft ? "?preview=1" : "";
  return {
    page: (other = id) => withToken(`/records/${encodeURIComponent(other)}`, token),
    content: (key) => withToken(`${files}/${encodeKey(key)}/content`, token),
    preview: (key) => withToken(`${record}/preview/${encodeKey(key)}${draft}`, token),
    table: (key) => withToken(`${record}/table/${encodeKey(key)}${draft}`, token),
    export: (format) => withToken(`${record}/export/${encodeURIComponent(format)}`, token),
    api: () => withToken(`/api/records/${encodeURIComponent(id)}`, token),
  };
}

// Identifier schemes with a resolver: the identifier as a link people can follow.
const RESOLVERS: Record<string, (id: string) => string> = {
  orcid: (id) => `https://orcid.org/${id}`,
  ror: (id) => `https://ror.org/${id}`,
  doi: (id) => `https://doi.org/${id.replace(/^https?:\/\/(dx\.)?doi\.org\//i, "")}`,
  handle: (id) => `https://hdl.handle.net/${id}`,
  arxiv: (id) => `https://arxiv.org/abs/${id.replace(/^arxiv:/i, "")}`,
  pmid: (id) => `https://pubmed.ncbi.nlm.nih.gov/${id}`,
  isni: (id) => `https://isni.org/isni/${id.replace(/\s/g, "")}`,
  gnd: (id) => `https://d-nb.info/gnd/${id.replace(/^gnd:/i, "")}`,
  url: (id) => id,
  purl: (id) => id,
  w3id: (id) => id,
};

/** The http(s) URL of an identifier, or null when its scheme has no resolver (ISBN, ISSN...) or it is no web address. */
export function identifierUrl(scheme: unknown, identifier: unknown): string | null {
  if (typeof scheme !== "string" || typeof identifier !== "string" || !identifier.trim()) return null;
  const make = ownEntry(RESOLVERS, scheme.toLowerCase());
  if (!make) return null;
  const url = make(identifier.trim());
  // Only web addresses become links: a `url` identifier of `javascript:` stays text.
  return /^https?:\/\/[^\s]+$/i.test(url) ? url : null;
}

/** The English (else first) title of a vocabulary entry (`{id, title: {en}}`), else its id. */
export function titleOf(value: JsonObject | undefined | null): string {
  if (!value || typeof value !== "object") return "";
  const title = value.title;
  if (typeof title === "string") return title;
  if (title && typeof title === "object") return String(title.en ?? Object.values(title)[0] ?? value.id ?? "");
  return String(value.id ?? "");
}
