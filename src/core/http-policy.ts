// What every request meets before routing, built from the configuration: the request-target
// check, CORS preflights, rate limits per user or client address, and the security, CORS and
// rate-limit headers of the response. core/http.ts runs it first thing.
import type { Config } from "../config";
import { createAddressResolver, isLoopback, type AddressResolver, type PeerInfo } from "./client-address";
import { corsPolicy, preflightResponse, setCorsHeaders, type CorsPolicy } from "./cors";
import { HttpError } from "./errors";
import { andThen } from "./settled";
import { createRateLimiter, parseRateLimits, type RateDecision, type RateLimit, type SharedCounts } from "./rate-limit";
import { targetRefusal } from "./request-target";
import { setSecurityHeaders } from "./security-headers";
import { systemClock, type Clock } from "./time";

export interface HttpPolicy {
  /** Null: no rate limits (RATELIMIT_ENABLED off). */
  rateLimits: { authenticated: RateLimit[]; guest: RateLimit[] } | null;
  clientAddress: AddressResolver;
  cors: CorsPolicy | null;
  /** BASE_URL is https: HSTS also when TLS ends at a proxy in front. */
  httpsBase: boolean;
  clock: Clock;
  /** The rate-limit counts the serving processes share (the database's); absent: this process counts alone. */
  sharedCounts?: SharedCounts;
  log?: (line: string) => void;
}

export function httpPolicy(config: Config, clock: Clock, shared: Pick<HttpPolicy, "sharedCounts" | "log"> = {}): HttpPolicy {
  return {
    ...shared,
    rateLimits: config.RATELIMIT_ENABLED ? { authenticated: parseRateLimits(config.RATELIMIT_AUTHENTICATED_USER), guest: parseRateLimits(config.RATELIMIT_GUEST_USER) } : null,
    clientAddress: createAddressResolver(config.APP_TRUSTED_PROXIES),
    cors: corsPolicy(config.CORS_ORIGINS),
    httpsBase: config.BASE_URL.startsWith("https:"),
    clock,
  };
}

/** Without a configuration: the headers and CORS for any origin, no rate limits. */
export const DEFAULT_HTTP_POLICY: HttpPolicy = {
  rateLimits: null,
  clientAddress: createAddressResolver([]),
  cors: corsPolicy(["*"]),
  httpsBase: false,
  clock: systemClock,
};

export interface PolicyDeps {
  /** The user id a request's token stands for; null for guests and for tokens that are not valid (routes answer those 401). */
  userOf(request: Request): number | null | Promise<number | null>;
  /** Methods served on a path (for OPTIONS); empty when the path is unknown. */
  allowedMethods(pathname: string): string[];
  /** Requests made internally (the GET that answers a HEAD): already counted. */
  isInternal(request: Request): boolean;
}

type HeaderBag = Record<string, string | number>;

const pathOf = (url: string) => {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const query = url.indexOf("?", start);
  return url.slice(start, query < 0 ? undefined : query);
};

export function createRequestPolicy(policy: HttpPolicy, deps: PolicyDeps) {
  const limiter = policy.rateLimits ? createRateLimiter(policy.clock, undefined, policy.sharedCounts ?? null, policy.log) : null;

  /** 429 or null; sets the X-RateLimit-* headers of whatever answers a limited client. */
  function rateLimit(request: Request, headers: HeaderBag, server: PeerInfo | null): HttpError | null | Promise<HttpError | null> {
    const address = policy.clientAddress(request, server);
    // In-process calls have no address; local scripts and benchmarks run free unless a proxy in
    // front makes every client look local.
    if (address === null || (!policy.clientAddress.trustsProxies && isLoopback(address))) return null;
    // A guest is known at once; a token's user is looked up in the database first.
    return andThen(deps.userOf(request), (userId) => count(headers, address, userId));
  }

  /** Counts the request against its user's (or else its address's) limits. */
  function count(headers: HeaderBag, address: string, userId: number | null): HttpError | null | Promise<HttpError | null> {
    const limits = userId === null ? policy.rateLimits!.guest : policy.rateLimits!.authenticated;
    return andThen(limiter!.take(userId === null ? `a:${address}` : `u:${userId}`, limits), (decision) => answer(headers, decision, userId));
  }

  /** The X-RateLimit-* headers of the decision, and its 429 when refused. */
  function answer(headers: HeaderBag, decision: RateDecision, userId: number | null): HttpError | null {
    headers["x-ratelimit-limit"] = String(decision.limit.count);
    headers["x-ratelimit-remaining"] = String(decision.remaining);
    headers["x-ratelimit-reset"] = String(Math.ceil(decision.resetAt / 1000));
    if (decision.allowed) return null;
    const wait = Math.max(1, Math.ceil((decision.resetAt - policy.clock.now()) / 1000));
    const who = userId === null ? "this client address" : "this user";
    return new HttpError(429, `Too many requests: the limit for ${who} is ${decision.limit.text}. Retry after ${wait} seconds.`, undefined, { "Retry-After": String(wait) });
  }

  return {
    /** Sets the security and CORS headers into `headers` (Elysia's `set.headers`, merged into every answer). */
    setHeaders(request: Request, headers: HeaderBag): void {
      setSecurityHeaders(headers, policy.httpsBase || request.url.startsWith("https:"));
      if (policy.cors) setCorsHeaders(headers, policy.cors, request.headers.get("origin"));
    },
    /** An early answer (an error to render, a preflight), or null to go on routing; a Promise when a rate limit waits for a token's user. */
    check(request: Request, headers: HeaderBag, server: PeerInfo | null): HttpError | Response | null | Promise<HttpError | null> {
      const refusal = targetRefusal(request);
      if (refusal) return refusal;
      if (request.method === "OPTIONS") {
        const methods = deps.allowedMethods(pathOf(request.url));
        return methods.length ? preflightResponse(request, methods, policy.cors, headers) : null;
      }
      if (limiter && !deps.isInternal(request) && !request.url.endsWith("/ping")) return rateLimit(request, headers, server);
      return null;
    },
  };
}
