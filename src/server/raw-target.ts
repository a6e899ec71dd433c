// Bun routes that match every request on its raw target, so that `.` and `..` path segments, which
// the URL parser resolves away from `request.url`, still show as route parameters to the check in
// core/request-target.ts. (Bun matches `routes` on the raw target but builds `request.url` with
// the URL parser: /draft/files/%2e%2e arrives as /draft/, the draft itself.)
import { markDotSegments } from "../core/request-target";

/** Paths up to this many segments get a route of their own (file keys may hold many `/`). */
export const ROUTED_DEPTH = 64;

type Fetch = (request: Request) => Response | Promise<Response>;

/** `/`, `/:s0`, `/:s0/`, `/:s0/:s1`, ... each handing the request, parameters attached, to `fetch`. */
export function rawTargetRoutes(fetch: Fetch): Record<string, Fetch> {
  const routes: Record<string, Fetch> = { "/": fetch };
  let pattern = "";
  for (let depth = 0; depth < ROUTED_DEPTH; depth++) {
    pattern += `/:s${depth}`;
    routes[pattern] = fetch;
    routes[`${pattern}/`] = fetch;
  }
  // No route matched, so the raw path has an empty segment (`//`) or more than ROUTED_DEPTH
  // segments. If the resolved path has neither, resolving dot segments is what changed it.
  routes["/*"] = (request) => {
    if (resolvedFromDots(request.url)) markDotSegments(request);
    return fetch(request);
  };
  return routes;
}

function resolvedFromDots(url: string): boolean {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const query = url.indexOf("?", start);
  const path = url.slice(start, query < 0 ? undefined : query);
  // An empty segment the parser kept is routed as it is (no route has one: a 404).
  if (path.includes("//")) return false;
  let segments = 0;
  for (let i = 0; i < path.length - 1; i++) if (path.charCodeAt(i) === 47) segments++;
  return segments <= ROUTED_DEPTH;
}
