// What a request target must look like before it is routed: no `.` or `..` path segments (raw or
// percent-encoded), and a URL of at most MAX_URL_BYTES.
import { badRequest, HttpError } from "./errors";

/** Longest path and query accepted: Bun's own former header limit, now answered in JSON (server/serve.ts raises Bun's). */
export const MAX_URL_BYTES = 16 * 1024;

/**
 * Requests the server saw with dot segments that no route parameter can show (server/raw-target.ts
 * marks them): the URL parser resolved the segments away, and with them any sign of them.
 */
const resolvedAway = new WeakSet<Request>();

export function markDotSegments(request: Request): void {
  resolvedAway.add(request);
}

const isDotSegment = (value: unknown) => value === "." || value === "..";

export const dotSegmentError = () => badRequest("The request path has a '.' or '..' segment (perhaps percent-encoded as %2e); such paths are refused, not resolved.");

/**
 * Why the target is refused, or null. `Request.url` has already resolved dot segments (the URL
 * parser does, in `new Request` and in Bun's server alike: /files/%2e%2e arrives as a path one
 * level up). The raw segments survive only in Bun's route parameters, matched on the raw target.
 */
export function targetRefusal(request: Request): HttpError | null {
  const url = request.url;
  const pathAt = url.indexOf("/", url.indexOf("//") + 2);
  if (pathAt >= 0 && url.length - pathAt > MAX_URL_BYTES) {
    return new HttpError(431, `The request URL is longer than the limit of ${MAX_URL_BYTES} bytes; send long queries in fewer or shorter parameters.`);
  }
  if (resolvedAway.has(request)) return dotSegmentError();
  const params = (request as { params?: Record<string, string> }).params;
  if (params) {
    for (const key in params) if (isDotSegment(params[key])) return dotSegmentError();
  }
  return null;
}
