// Cross-origin use of the API by browser scripts, as InvenioRDM's REST API allows it with
// Flask-CORS: the Access-Control-* headers of responses and the answer to preflight requests.
// Safe with any origin: tokens travel in the Authorization header, never in cookies a page could
// borrow, so a foreign page can only do what its own token allows.

/** Response headers a script may read besides the simple ones. */
const EXPOSED_HEADERS = "ETag, Link, Location, Content-Disposition, Content-MD5, Retry-After, WWW-Authenticate, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset";

/** Request headers allowed when a preflight names none. */
const DEFAULT_ALLOWED_HEADERS = "Authorization, Content-Type, Accept, If-Match, If-None-Match, Range";

/** How long a browser may reuse a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE = "600";

export interface CorsPolicy {
  /** True when any origin is allowed (`*`); otherwise only the origins listed. */
  readonly any: boolean;
  readonly origins: ReadonlySet<string>;
}

/** From CORS_ORIGINS: `*`, a list of origins (`https://app.example.org`), or nothing (CORS off). */
export function corsPolicy(origins: string[]): CorsPolicy | null {
  if (origins.length === 0) return null;
  return { any: origins.includes("*"), origins: new Set(origins.map((o) => o.replace(/\/+$/, "").toLowerCase())) };
}

/** Sets the Access-Control-* headers of a response to a request from `origin` (the Origin header). */
export function setCorsHeaders(headers: Record<string, string | number>, cors: CorsPolicy, origin: string | null): void {
  if (cors.any) {
    headers["access-control-allow-origin"] = "*";
  } else {
    // The answer differs by origin: caches must keep them apart.
    headers.vary = "Origin";
    if (!origin || !cors.origins.has(origin.toLowerCase())) return;
    headers["access-control-allow-origin"] = origin;
  }
  headers["access-control-expose-headers"] = EXPOSED_HEADERS;
}

const TOKEN_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/**
 * The answer to OPTIONS on a served path: 204 with `Allow` and, for a preflight from an allowed
 * origin, what may be sent. `methods` are those the path serves; `headers` those set so far.
 */
export function preflightResponse(request: Request, methods: string[], cors: CorsPolicy | null, headers: Record<string, string | number>): Response {
  const allow = [...methods, "OPTIONS"].join(", ");
  const out = new Headers(headers as Record<string, string>);
  out.set("Allow", allow);
  const origin = request.headers.get("origin");
  if (cors && origin && request.headers.has("access-control-request-method") && out.has("access-control-allow-origin")) {
    out.set("Access-Control-Allow-Methods", allow);
    const asked = request.headers.get("access-control-request-headers")?.trim();
    out.set("Access-Control-Allow-Headers", asked && TOKEN_LIST.test(asked) ? asked : DEFAULT_ALLOWED_HEADERS);
    out.set("Access-Control-Max-Age", PREFLIGHT_MAX_AGE);
    out.append("Vary", "Access-Control-Request-Headers");
  }
  return new Response(null, { status: 204, headers: out });
}
