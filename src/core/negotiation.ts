// Accept-header negotiation with quality values.

/** JSON representations every API route serves; the InvenioRDM vendor type is treated as the service's. */
export const JSON_MEDIA_TYPES = ["application/json", "application/vnd.service.v1+json", "application/vnd.inveniordm.v1+json"];

interface Range {
  type: string;
  subtype: string;
  q: number;
  order: number;
}

function parseAccept(header: string): Range[] {
  const ranges: Range[] = [];
  header.split(",").forEach((part, order) => {
    const [media = "", ...params] = part.trim().split(";");
    const [type, subtype] = media.trim().toLowerCase().split("/");
    if (!type || !subtype) return;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split("=");
      if (k?.trim().toLowerCase() === "q") q = Math.max(0, Math.min(1, Number(v) || 0));
    }
    ranges.push({ type, subtype, q, order });
  });
  return ranges;
}

function quality(ranges: Range[], offered: string): number {
  const [type, subtype] = offered.split("/");
  let best: { specificity: number; q: number } | null = null;
  for (const r of ranges) {
    const specificity = r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === "*" ? 1 : r.type === "*" && r.subtype === "*" ? 0 : -1;
    if (specificity < 0) continue;
    if (!best || specificity > best.specificity) best = { specificity, q: r.q };
  }
  return best ? best.q : 0;
}

/**
 * Picks the offered media type the client prefers: highest quality, then the server's order.
 * No Accept header (or an empty one) accepts the first offered type. Returns null when none fits.
 */
export function negotiate(accept: string | null | undefined, offered: readonly string[]): string | null {
  if (!accept || !accept.trim()) return offered[0] ?? null;
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return offered[0] ?? null;
  let chosen: string | null = null;
  let chosenQ = 0;
  for (const type of offered) {
    const q = quality(ranges, type);
    if (q > chosenQ) {
      chosen = type;
      chosenQ = q;
    }
  }
  return chosen;
}

/**
 * True when the client asks for an HTML page before JSON: `text/html` named outright (a browser's
 * navigation) with a quality above zero and at least JSON's. Any type alone (`*` over `*`), no
 * header, or JSON first is an API client's request.
 */
export function prefersHtml(accept: string | null | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const html = ranges.find((r) => r.type === "text" && r.subtype === "html");
  if (!html || html.q <= 0) return false;
  return html.q >= quality(ranges, "application/json");
}
