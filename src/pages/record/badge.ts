// The DOI badge as an SVG image, served by Cairn at `/badge/DOI/{doi}.svg` as Zenodo serves its own
// (invenio-formatter's badge route): a grey "DOI" and the DOI on blue, for READMEs and web pages.
import { Elysia } from "elysia";
import { notFound } from "../../core/errors";
import { encodeKey } from "./links";

/** A DOI: the 10. prefix, a registrant code, a slash and a suffix (DOI handbook 2.2), of a sane length. */
const DOI = /^10\.\d{4,9}\/\S{1,300}$/;

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.codePointAt(0)};`);

/** Text width at 11 px Verdana, roughly: the badge sets `textLength`, so the text fits whatever font draws it. */
const widthOf = (text: string) => Math.ceil(text.length * 6.8);

/** The badge's SVG document. */
export function doiBadgeSvg(doi: string): string {
  const label = "DOI";
  const left = widthOf(label) + 12;
  const right = widthOf(doi) + 12;
  const width = left + right;
  const title = escapeXml(`DOI: ${doi}`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>`,
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="#0b62a4"/><rect width="${width}" height="20" fill="url(#s)"/></g>`,
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">`,
    `<text x="${left / 2}" y="14" textLength="${widthOf(label)}">${label}</text>`,
    `<text x="${left + right / 2}" y="14" textLength="${widthOf(doi)}" lengthAdjust="spacingAndGlyphs">${escapeXml(doi)}</text>`,
    `</g></svg>`,
  ].join("");
}

/** The badge's path on this site (each segment of the DOI percent-encoded, the slashes kept). */
export const doiBadgePath = (doi: string) => `/badge/DOI/${encodeKey(doi)}.svg`;

/** `GET /badge/DOI/{doi}.svg`: the badge of any well-formed DOI (as Zenodo's: a picture of the text, no look-up); 404 otherwise. */
export const badgePages = () =>
  new Elysia().get("/badge/DOI/*", ({ params }) => {
    const raw = params["*"];
    let doi = "";
    try {
      doi = raw.endsWith(".svg") ? raw.slice(0, -4).split("/").map(decodeURIComponent).join("/") : "";
    } catch {
      doi = "";
    }
    if (!DOI.test(doi)) throw notFound("There is no badge here: the address must be /badge/DOI/{a DOI}.svg.");
    return new Response(doiBadgeSvg(doi), {
      headers: {
        "Content-Type": "image/svg+xml; charset=utf-8",
        // An image that runs nothing and loads nothing, wherever it is opened.
        "Content-Security-Policy": "default-src 'none'",
        "Cache-Control": "public, max-age=86400",
      },
    });
  });
