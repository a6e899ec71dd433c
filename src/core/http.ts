// The HTTP conventions every route shares: host check, JSON bodies, the actor, JSON responses
// (negotiation, prettyprint), and one error path rendering {"status", "message"[, "errors"]}.
import type { Server } from "bun";
import { Elysia, ValidationError } from "elysia";
import { anonymous, type Actor } from "./actor";
import { isFormContentType, isJsonContentType, readActionPayload, readFormBody, readJsonBody, requireJsonObject, takesActionPayload } from "./body";
import { badRequest, type FieldError, forbidden, HttpError, httpErrorOf, invalidToken, methodNotAllowed, notAcceptable, notFound, unsupportedMediaType } from "./errors";
import { createRequestPolicy, DEFAULT_HTTP_POLICY, type HttpPolicy } from "./http-policy";
import { JSON_MEDIA_TYPES, negotiate, prefersHtml } from "./negotiation";
import { createRoutesIndex } from "./routes-index";

export interface HttpOptions {
  allowedHosts: string[];
  maxContentLength: number;
  logRequests: boolean;
  /** Where an unexpected failure (a 500) is reported with its stack: the app's `log` dependency. */
  log: (message: string) => void;
  /** `METHOD /route/:pattern` of routes whose body is file content (octet-stream), streamed unread. */
  streamedBodyRoutes: ReadonlySet<string>;
  /** `METHOD /route` of routes that take form bodies (application/x-www-form-urlencoded) and answer in their own media type. */
  formBodyRoutes?: ReadonlySet<string>;
  /** Bearer tokens and browser sessions to actors. */
  authenticate: Authenticator;
  /** Rate limits, CORS origins and HSTS from the configuration (core/http-policy.ts); default: no rate limits, CORS for any origin. */
  policy?: HttpPolicy;
  /**
   * The HTML page of an error no route answered (an unknown URL, a method the URL does not take, a
   * fault of ours) for a browser asking outside /api/ (the pages' ErrorPage); without it, or for API
   * clients, the spec's JSON.
   */
  htmlError?: (error: HttpError, request: Request, actor: Actor) => Response | Promise<Response>;
}

/** How callers are known: bearer tokens (API clients) and session cookies (browsers). */
export interface Authenticator {
  /** The actor of a bearer token, or null when it is unknown, expired or revoked. */
  token(secret: string): Promise<Actor | null>;
  /** The user and CSRF token of a session cookie's secret, or null when it has ended. */
  session?(secret: string): Promise<{ actor: Actor; csrf: string } | null>;
}

/** The session cookie (HttpOnly, SameSite=Lax; Secure on HTTPS). */
export const SESSION_COOKIE = "cairn_session";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The value of one cookie of the request, or null. */
export function cookieOf(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      // A malformed %-escape is a browser's (or a forger's) mistake: no such cookie, never a 500.
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** What the hooks read of the app's routes: paths for 405s and OPTIONS, body schemas for the JSON shape. */
interface RouteInfo {
  method: string;
  path: string;
  hooks?: { body?: unknown };
}

type HeaderValues = ConstructorParameters<typeof Headers>[0];

const pretty = (request: Request) => /[?&]prettyprint=(1|true)(&|$)/.test(request.url);

export function jsonResponse(body: unknown, status: number, request: Request, headers: HeaderValues = {}, type = "application/json") {
  const text = JSON.stringify(body, null, pretty(request) ? 2 : undefined);
  if (headers instanceof Headers || Array.isArray(headers)) {
    const h = new Headers(headers);
    h.set("Content-Type", type);
    return new Response(text, { status, headers: h });
  }
  // A plain object (every route's `set.headers`) goes to Bun as one: a Headers built here first
  // cost ~2 µs a response.
  const plain: Record<string, string> = { "content-type": type };
  for (const key in headers) if (key.toLowerCase() !== "content-type") plain[key] = (headers as Record<string, string>)[key]!;
  return new Response(text, { status, headers: plain });
}

export function errorResponse(error: HttpError, request: Request) {
  return jsonResponse(error.toJSON(), error.status, request, error.headers);
}

/** `/a/0/b` (TypeBox) -> `a.0.b` (the spec's dotted path). */
const dottedPath = (pointer: string) => pointer.replace(/^\//, "").split("/").filter(Boolean).join(".");

function fromValidation(error: ValidationError): HttpError {
  const errors: FieldError[] = error.all.map((e) => {
    const field = "path" in e ? dottedPath(String(e.path)) : "";
    const message = "message" in e && e.message !== "Expected union value" ? String(e.message) : "Not a valid value.";
    return { field, messages: [message] };
  });
  const message = error.type === "body" ? "A validation error occurred." : "Invalid querystring parameters.";
  return badRequest(message, errors);
}

function hostOf(request: Request): string {
  const host = request.headers.get("host") ?? new URL(request.url).host;
  return host
    .replace(/:\d+$/, "")
    .replace(/^\[|\]$/g, "")
    .toLowerCase();
}

function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (m) return m[1]!;
  const url = request.url;
  if (!url.includes("access_token=")) return null;
  return new URL(url).searchParams.get("access_token");
}

/** Actors already resolved: the rate limit reads the token before routing, the route again. */
const resolvedActors = new WeakMap<Request, Actor>();

/** True for a request with neither a token nor a session cookie: a guest's, known without the database. */
const isGuest = (request: Request, authenticate: Authenticator) => bearerToken(request) === null && !(authenticate.session && cookieOf(request, SESSION_COOKIE));

/**
 * Resolves the actor of a request; 401 for a token that is sent but not valid. A guest's actor is
 * answered as it is, not as a Promise: most reads are guests', and their way has no wait.
 */
export function resolveActor(request: Request, authenticate: Authenticator): Actor | Promise<Actor> {
  const known = resolvedActors.get(request);
  if (known) return known;
  return isGuest(request, authenticate) ? withLinkToken(request, anonymous) : lookUpActor(request, authenticate);
}

async function lookUpActor(request: Request, authenticate: Authenticator): Promise<Actor> {
  const secret = bearerToken(request);
  const actor = secret === null ? await sessionActor(request, authenticate) : await authenticate.token(secret);
  if (!actor) throw invalidToken();
  return withLinkToken(request, actor);
}

/** The actor with the request's secret link token, kept for the request's later look-ups. */
function withLinkToken(request: Request, actor: Actor): Actor {
  const linkToken = secretLinkToken(request);
  const resolved = linkToken ? { ...actor, linkToken } : actor;
  resolvedActors.set(request, resolved);
  return resolved;
}

/**
 * The actor of the request's session cookie (anonymous without one, or when it has ended). A
 * cookie goes with every request a browser makes, also those another site triggers: API writes it
 * authenticates must carry the session's CSRF token in `X-CSRF-Token` (pages check their forms').
 */
async function sessionActor(request: Request, authenticate: Authenticator): Promise<Actor> {
  const cookie = authenticate.session ? cookieOf(request, SESSION_COOKIE) : null;
  const session = cookie ? await authenticate.session!(cookie) : null;
  if (!session) return anonymous;
  if (!SAFE_METHODS.has(request.method) && new URL(request.url).pathname.startsWith("/api/") && request.headers.get("x-csrf-token") !== session.csrf) {
    throw forbidden("A request signed in by the session cookie must send the session's CSRF token in the X-CSRF-Token header.");
  }
  return { ...session.actor, csrf: session.csrf };
}

/** A secret link's token (`?token=`) on a record, file, archive or export URL; null without one. */
function secretLinkToken(request: Request): string | null {
  const url = request.url;
  if (!url.includes("token=")) return null;
  const token = new URL(url).searchParams.get("token");
  return token && token.length <= 200 ? token : null;
}

/**
 * The user a request's token stands for; null for guests and invalid tokens (their routes answer
 * 401). A request with neither a token nor a session cookie is a guest's, known without the database.
 */
function userOf(request: Request, authenticate: Authenticator): number | null | Promise<number | null> {
  if (isGuest(request, authenticate)) return null;
  return Promise.resolve(resolveActor(request, authenticate)).then(
    (actor) => (actor.kind === "user" ? actor.userId : null),
    () => null,
  );
}

/** True when a route's body schema takes a list (`t.Array`, or a union with one). */
function takesList(schema: unknown): boolean {
  const s = schema as { type?: string; anyOf?: { type?: string }[] } | undefined;
  return s?.type === "array" || !!s?.anyOf?.some((member) => member.type === "array");
}

/**
 * HEAD runs the GET route and drops its body unread. (Elysia's own HEAD reads the whole body to
 * count its length: a file download would be read from disk for nothing.)
 */
async function headFromGet(request: Request, handle: (request: Request) => Promise<Response>) {
  const get = new Request(request.url, { method: "GET", headers: request.headers });
  headRequests.add(get);
  const response = await handle(get);
  // A stream may answer its cancel with a rejection (client-zip's rethrows the reason, undefined):
  // the bytes are not wanted either way, and the answer is already complete.
  await response.body?.cancel().catch(() => {});
  return new Response(null, { status: response.status, headers: response.headers });
}

const headRequests = new WeakSet<Request>();
/** True when the request is the GET that answers a HEAD (no bytes will be sent: no download to count). */
export const isHeadRequest = (request: Request) => request.method === "HEAD" || headRequests.has(request);

/** A route's context, as Elysia gives it and as a direct route (below) builds it. */
export interface RouteContext<P extends Record<string, string>> {
  actor: Actor;
  params: P;
  request: Request;
  server: Server<unknown> | null;
  set: { headers: Record<string, string | number>; status?: number | string };
}

/**
 * What every request goes through whichever way it is routed: Elysia's global hooks (`hooks`) for
 * every route, or `direct` for the few hot read routes the server hands straight from Bun's router
 * (wired in app.ts, served by server/serve.ts), without the framework's per-request work (a quarter of a
 * record read's CPU).
 */
export function createHttp(options: HttpOptions, routes: () => RouteInfo[], handle: () => (request: Request) => Promise<Response>) {
  const index = createRoutesIndex(routes);
  const allowed = new Set(options.allowedHosts);
  const policy = createRequestPolicy(options.policy ?? DEFAULT_HTTP_POLICY, {
    userOf: (request) => userOf(request, options.authenticate),
    allowedMethods: index.allowedMethods,
    isInternal: (request) => headRequests.has(request),
  });
  /** Whether a route (`METHOD /path`) has a body schema passing `test`; the routes are read at the first request, once all are mounted. */
  const routesWithBody = (test: (schema: unknown) => boolean) => {
    let keys: Set<string> | null = null;
    return (key: string) =>
      (keys ??= new Set(
        routes()
          .filter((r) => test(r.hooks?.body))
          .map((r) => `${r.method.toUpperCase()} ${r.path}`),
      )).has(key);
  };
  const takesListBody = routesWithBody(takesList);
  // Actions (publish, submit-review, accept...) read an optional payload: none, null, [] and {} alike.
  const isActionRoute = routesWithBody(takesActionPayload);
  const readJsonObject = async (request: Request, listAllowed: boolean) => {
    const body = await readJsonBody(request, options.maxContentLength);
    requireJsonObject(body, listAllowed);
    return body;
  };

  /** HEAD is answered by its GET (headFromGet); other methods go on to routing. */
  const routeHead = (request: Request) => (request.method === "HEAD" ? headFromGet(request, handle()) : undefined);

  /** Before routing: the security and CORS headers into `headers`, and an early answer (or undefined). */
  function begin(request: Request, headers: Record<string, string | number>, server: Server<unknown> | null): Response | Promise<Response | undefined> | undefined {
    policy.setHeaders(request, headers);
    // /ping answers any name, so health checks need not know the public one.
    if (!request.url.endsWith("/ping")) {
      const host = hostOf(request);
      if (!allowed.has(host)) {
        const error = badRequest(`Host '${host}' is not served here; use ${[...allowed].join(" or ")}.`);
        return fail(error, undefined, request);
      }
    }
    // Refusals before routing go the one error path too: a browser navigating to a page gets the
    // error page (a 429 with its Retry-After), API clients and /api/ the spec's JSON.
    const early = policy.check(request, headers, server);
    // A rate limit that had to look up the token's user: the same answers, once it is known.
    if (early instanceof Promise) return early.then((refusal) => (refusal ? fail(refusal, undefined, request) : routeHead(request)));
    if (early instanceof HttpError) return fail(early, undefined, request);
    if (early) return early;
    return routeHead(request);
  }

  /** A route's return value as the response; undefined for a Response of its own (passed through). */
  function respond(value: unknown, set: RouteContext<never>["set"], request: Request): Response | undefined {
    // Responses pass through, and so do Elysia's own static handlers (the docs page).
    if (value instanceof Response || value === undefined || typeof value === "function") return;
    const status = typeof set.status === "number" ? set.status : 200;
    if (value === null || status === 204) return new Response(null, { status, headers: set.headers as Record<string, string> });
    const type = negotiate(request.headers.get("accept"), JSON_MEDIA_TYPES);
    if (!type) return errorResponse(notAcceptable(JSON_MEDIA_TYPES), request);
    return jsonResponse(value, status, request, set.headers as Record<string, string>, type);
  }

  /** Anything a route or hook threw as the refusal to answer: the spec's error, a 500 (logged) only for our own faults. */
  function refusalOf(error: unknown, code: unknown, request: Request): HttpError {
    const refusal = httpErrorOf(error);
    if (refusal) return refusal;
    if (error instanceof ValidationError) return fromValidation(error);
    if (code === "NOT_FOUND") {
      const methods = index.allowedMethods(new URL(request.url).pathname);
      return methods.length ? methodNotAllowed(methods) : notFound("The requested URL was not found on the server.");
    }
    if (code === "PARSE") {
      // Elysia wraps what the body reader threw (413, bad JSON) in its own ParseError.
      const cause = (error as { cause?: unknown }).cause;
      return cause instanceof HttpError ? cause : badRequest("Unable to decode JSON data in request body.");
    }
    const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
    options.log(`[cairn] ${request.method} ${new URL(request.url).pathname} failed: ${detail}`);
    return new HttpError(500, "Internal server error.");
  }

  /**
   * The refusal as the response: a page for a browser outside /api/ (InvenioRDM's API paths answer
   * JSON whatever is asked), the spec's JSON for everyone else and whenever the page itself fails.
   */
  function fail(error: unknown, code: unknown, request: Request): Response | Promise<Response> {
    const refusal = refusalOf(error, code, request);
    const htmlError = options.htmlError;
    if (!htmlError || isApiPath(request)) return errorResponse(refusal, request);
    if (!prefersHtml(request.headers.get("accept"))) {
      // Outside /api/ the same URL answers a browser with a page: caches must keep the two apart.
      const response = errorResponse(refusal, request);
      response.headers.set("Vary", "Accept");
      return response;
    }
    const json = () => errorResponse(refusal, request);
    return Promise.resolve(resolveActor(request, options.authenticate))
      .catch(() => anonymous)
      .then((actor) => htmlError(refusal, request, actor))
      .catch(json);
  }

  const logged = (request: Request, status: unknown) => {
    if (options.logRequests) console.error(`${request.method} ${new URL(request.url).pathname} ${status ?? 200}`);
  };

  /** Hooks for the whole app; register before any route. */
  const hooks = new Elysia({ name: "cairn-http-hooks" })
    .onRequest(({ request, set, server }) => begin(request, set.headers, server))
    .onParse({ as: "global" }, async ({ request, contentType, route }) => {
      if (options.streamedBodyRoutes.has(`${request.method} ${route}`)) {
        // File content: left unread for the route to stream to disk. The same routes take JSON
        // for other sub-resources (a file's metadata), parsed as usual.
        if (/^application\/octet-stream\s*(;|$)/i.test(contentType)) return request.body ?? new ReadableStream();
        if (isJsonContentType(contentType)) return readJsonObject(request, false);
        throw unsupportedMediaType("application/octet-stream");
      }
      if (options.formBodyRoutes?.has(`${request.method} ${route}`)) {
        if (isFormContentType(contentType)) return readFormBody(request, options.maxContentLength);
        if (!request.body || request.headers.get("content-length") === "0") return new URLSearchParams();
        throw unsupportedMediaType("application/x-www-form-urlencoded");
      }
      if (isJsonContentType(contentType)) {
        const key = `${request.method} ${route}`;
        if (isActionRoute(key)) return readActionPayload(await readJsonBody(request, options.maxContentLength));
        return readJsonObject(request, takesListBody(key));
      }
      // No body at all (a DELETE, an action without payload) needs no content type.
      if (!request.body || request.headers.get("content-length") === "0") return undefined;
      throw unsupportedMediaType("application/json");
    })
    .onBeforeHandle({ as: "global" }, ({ request, route, params }) => {
      // Elysia hands a path segment that is not valid percent-encoded UTF-8 (`%E2%82`) to the
      // route as null, where every service expects a string.
      for (const key in params) if ((params as Record<string, unknown>)[key] === null) throw badRequest("The URL's path is not valid percent-encoded UTF-8.");
      // Writes answer in JSON: refuse up front, before anything changes, when JSON is not acceptable.
      if (request.method === "GET" || request.method === "HEAD") return;
      if (options.formBodyRoutes?.has(`${request.method} ${route}`)) return;
      if (!negotiate(request.headers.get("accept"), JSON_MEDIA_TYPES)) return errorResponse(notAcceptable(JSON_MEDIA_TYPES), request);
    })
    .mapResponse({ as: "global" }, ({ responseValue, set, request }) => respond(responseValue, set as RouteContext<never>["set"], request))
    .onError({ as: "global" }, ({ code, error, request }) => fail(error, code, request))
    .onAfterResponse({ as: "global" }, ({ request, set }) => logged(request, set.status));

  /**
   * A GET route for Bun's router: the same stages, actor and error path as through `hooks`, the
   * response's headers completed from `set` as Elysia does (the response's own win). Any other
   * method, and a path parameter that is not a plain id (dot segments, percent-escapes), goes to
   * `fallback`, the whole app, so only the plain read takes this way.
   */
  function direct<P extends Record<string, string>>(route: (context: RouteContext<P>) => unknown, fallback: (request: Request) => Response | Promise<Response>) {
    /** The route's answer (its actor and its work may wait for the database), logged as Elysia's hooks log it. */
    async function answer(request: Request, server: Server<unknown>, params: P, set: RouteContext<P>["set"]): Promise<Response> {
      let response: Response;
      try {
        const actor = resolveActor(request, options.authenticate);
        const value = await route({ actor: actor instanceof Promise ? await actor : actor, params, request, server, set });
        response = respond(value, set, request) ?? withSetHeaders(value as Response, set);
      } catch (error) {
        response = withSetHeaders(await fail(error, undefined, request), set);
      }
      logged(request, response.status);
      return response;
    }

    return (request: Request, server: Server<unknown>): Response | Promise<Response> => {
      if (request.method !== "GET") return fallback(request);
      const params = (request as Request & { params: P }).params;
      for (const key in params) if (!PLAIN_PARAM.test(params[key]!)) return fallback(request);
      const set: RouteContext<P>["set"] = { headers: {}, status: 200 };
      let early: ReturnType<typeof begin>;
      try {
        early = begin(request, set.headers, server);
      } catch (error) {
        // Direct routes are API routes: the spec's JSON, never a page.
        const response = withSetHeaders(errorResponse(refusalOf(error, undefined, request), request), set);
        logged(request, response.status);
        return response;
      }
      if (early instanceof Response) return withSetHeaders(early, set);
      // A rate limit that looked up the user: refused, or on to the route.
      if (early) return early.then((r) => (r ? withSetHeaders(r, set) : answer(request, server, params, set)));
      return answer(request, server, params, set);
    };
  }

  return { hooks, direct };
}

/** The API's paths answer JSON whatever is asked, as InvenioRDM's do; the pages' error page is for everything else. */
function isApiPath(request: Request): boolean {
  const path = new URL(request.url).pathname;
  return path === "/api" || path.startsWith("/api/");
}

/** What a direct route takes as a path parameter; anything else is left to the framework's way. */
const PLAIN_PARAM = /^[A-Za-z0-9_-]{1,200}$/;

/** Elysia's completion of a returned Response: `set`'s headers where the response has none, `set`'s status over a plain 200. */
function withSetHeaders(response: Response, set: RouteContext<never>["set"]): Response {
  for (const key in set.headers) if (!response.headers.has(key)) response.headers.set(key, String(set.headers[key]));
  const status = typeof set.status === "number" ? set.status : 200;
  return response.status === 200 && status !== 200 ? new Response(response.body, { status, headers: response.headers }) : response;
}

/** The per-request context feature routes use: `actor`. */
export function actorContext(authenticate: Authenticator, seed: string) {
  return new Elysia({ name: "cairn-actor", seed }).derive({ as: "scoped" }, async ({ request }) => ({
    actor: await resolveActor(request, authenticate),
  }));
}

export type ActorContext = ReturnType<typeof actorContext>;
