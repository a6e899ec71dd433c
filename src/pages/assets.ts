// The pages' static assets, embedded in the executable: one stylesheet, small scripts, the favicon
// (and the configured theme's stylesheet and logo), each served under a name carrying a hash of its
// content, so browsers may keep it for a year.
import { createHash } from "node:crypto";
import siteCss from "./static/site.css" with { type: "text" };
import siteJs from "./static/site.js" with { type: "text" };
import faviconSvg from "./static/favicon.svg" with { type: "text" };

export interface Asset {
  /** `/static/<name>.<hash>.<ext>` */
  url: string;
  type: string;
  /** Text, or the bytes of an image (a logo). */
  body: string | Uint8Array;
  etag: string;
}

const TYPES: Record<string, string> = {
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
};

/** The assets by file name (`site.css`); add one here and it is served and hashed. */
const SOURCES: Record<string, string> = { "site.css": siteCss, "site.js": siteJs, "favicon.svg": faviconSvg };

function build(name: string, body: string | Uint8Array): Asset {
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 16);
  const dot = name.lastIndexOf(".");
  const ext = name.slice(dot + 1);
  return { url: `/static/${name.slice(0, dot)}.${hash}.${ext}`, type: TYPES[ext] ?? "application/octet-stream", body, etag: `"${hash}"` };
}

const ASSETS = new Map(Object.entries(SOURCES).map(([name, body]) => [name, build(name, body)]));
const BY_URL = new Map([...ASSETS.values()].map((a) => [a.url, a]));

/** The asset of a source file name; throws for a name that is not registered (a typo in a page). */
export function asset(name: string): Asset {
  const found = ASSETS.get(name);
  if (!found) throw new Error(`no asset ${name}`);
  return found;
}

/** The asset at a `/static/...` URL, or null. */
export const assetAt = (url: string): Asset | null => BY_URL.get(url) ?? null;

/** Registers a script or stylesheet of a page group (each page group keeps its own file under static/). */
export function registerAsset(name: string, body: string | Uint8Array): Asset {
  const built = build(name, body);
  ASSETS.set(name, built);
  BY_URL.set(built.url, built);
  return built;
}
