// The THEME_FOOTER_LINKS setting: links every page's footer shows, read from cairn.toml's
// [[THEME_FOOTER_LINKS]] tables or CAIRN_THEME_FOOTER_LINKS (JSON), checked at start.
import { ConfigTableError, isRecord, valueOf } from "./config-tables";

export interface FooterLink {
  title: string;
  url: string;
}

const KNOWN = ["title", "url"];

/** A link a footer may carry: http(s) anywhere, or a path on this site — never javascript: or a protocol-relative `//host`. */
function isFooterUrl(url: string): boolean {
  if (url.startsWith("/")) return !url.startsWith("//") && !url.startsWith("/\\");
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:";
  } catch {
    return false;
  }
}

/** Reads the links: an array of tables (TOML) or a JSON string of one (the environment), each with a title and a url. */
export function parseFooterLinks(raw: unknown): FooterLink[] {
  const value = valueOf(raw, [], 'a JSON array of links such as [{"title": "Privacy", "url": "/privacy"}]');
  if (!Array.isArray(value)) throw new ConfigTableError("expected an array of tables ([[THEME_FOOTER_LINKS]]) with title and url");
  return value.map((entry, i) => {
    const label = `link ${i + 1}`;
    if (!isRecord(entry)) throw new ConfigTableError(`${label}: expected a table with title and url`);
    for (const key of Object.keys(entry)) if (!KNOWN.includes(key)) throw new ConfigTableError(`${label}: ${key} is not a known field (known: ${KNOWN.join(", ")})`);
    const { title, url } = entry;
    if (typeof title !== "string" || !title.trim()) throw new ConfigTableError(`${label}: title is required`);
    if (typeof url !== "string" || !isFooterUrl(url.trim()))
      throw new ConfigTableError(`${label} (${title}): url must be an https:// or http:// address or a path on this site such as /about`);
    return { title: title.trim(), url: url.trim() };
  });
}
