// Absolute links built from the configured base URL.

export type QueryValues = Record<string, string | number | boolean | undefined | null | (string | number)[]>;

export interface Links {
  readonly baseUrl: string;
  /** `{base}/api{path}` with an optional query string. */
  api(path: string, query?: QueryValues): string;
  /** `{base}{path}`: pages for people (self_html and the like). */
  html(path: string, query?: QueryValues): string;
}

export function queryString(query?: QueryValues): string {
  // Most links (a record's two dozen) have no query: no URLSearchParams for them.
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}

export function createLinks(baseUrl: string): Links {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    baseUrl: base,
    api: (path, query) => `${base}/api${path}${queryString(query)}`,
    html: (path, query) => `${base}${path}${queryString(query)}`,
  };
}

/**
 * A request's query parameters, a repeated one as an array (facet filters repeat: `?type=a&type=b`).
 * Prototype-free: on a plain object `?constructor=1` would meet the inherited function (and a search
 * worker cannot be sent one), `?__proto__=x` would set the prototype.
 */
export function queryParams(url: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of new URL(url).searchParams) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** A request's query parameters, one value each (a repeated one keeps its last): options such as `style`. */
export function singleQueryParams(url: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [key, value] of new URL(url).searchParams) out[key] = value;
  return out;
}
