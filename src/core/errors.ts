// Typed HTTP errors; one onError (core/http.ts) renders them as {"status", "message"[, "errors"]}.

export interface FieldError {
  /** Dotted path with list indices, e.g. "metadata.creators.0.person_or_org.family_name". */
  field: string;
  messages: string[];
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
    /** Extra top-level members of the body (e.g. `location` on a redirect, `tombstone` on 410). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toJSON() {
    return { status: this.status, message: this.message, ...this.extra, ...(this.errors ? { errors: this.errors } : {}) };
  }
}

/**
 * The HttpError `error` is, or carries as its cause: drizzle wraps whatever a database port throws
 * (a 503 while the database is away, a 400 for text it cannot hold) in its own query error.
 */
export function httpErrorOf(error: unknown): HttpError | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof HttpError) return e;
  }
  return null;
}

/** A redirect with InvenioRDM's JSON body, e.g. from a parent id to its latest version. */
export class RedirectError extends HttpError {
  constructor(status: 301 | 302, location: string, message: string) {
    super(status, message, undefined, { Location: location }, { location });
  }
}

/** The one spelling of a 400: a message, the per-field list as given, and any extra top-level members of the body. */
export const badRequest = (message: string, errors?: FieldError[], extra: Record<string, unknown> = {}) => new HttpError(400, message, errors, {}, extra);

/** A query parameter the endpoint cannot take (InvenioRDM's message for every such 400). */
export const invalidQuery = (errors: FieldError[]) => badRequest("Invalid querystring parameters.", errors);

/** A 400 with the per-field list; merges repeated fields. */
export function validationError(errors: FieldError[], message = "A validation error occurred.") {
  const merged = new Map<string, string[]>();
  for (const e of errors) merged.set(e.field, [...(merged.get(e.field) ?? []), ...e.messages]);
  return badRequest(
    message,
    [...merged].map(([field, messages]) => ({ field, messages })),
  );
}

export const unauthorized = (message = "Authentication required: send a valid token as 'Authorization: Bearer <token>'.") =>
  new HttpError(401, message, undefined, { "WWW-Authenticate": 'Bearer realm="cairn"' });

export const invalidToken = (message = "The access token is invalid, expired or revoked.") =>
  new HttpError(401, message, undefined, { "WWW-Authenticate": 'Bearer realm="cairn", error="invalid_token"' });

export const forbidden = (message = "Permission denied.") => new HttpError(403, message);
export const notFound = (message = "Not found.") => new HttpError(404, message);
export const methodNotAllowed = (allowed: string[]) =>
  new HttpError(405, `The method is not allowed for the requested URL. Allowed: ${allowed.join(", ")}.`, undefined, {
    Allow: allowed.join(", "),
  });
export const notAcceptable = (offered: string[]) => new HttpError(406, `None of the requested media types can be served. Supported: ${offered.join(", ")}.`);
export const conflict = (message: string) => new HttpError(409, message);
export const gone = (message: string, extra: Record<string, unknown> = {}) => new HttpError(410, message, undefined, {}, extra);
export const preconditionFailed = (message = "The resource was changed by someone else: its revision does not match If-Match.") => new HttpError(412, message);
export const payloadTooLarge = (limit: number) => new HttpError(413, `The request body is larger than the limit of ${limit} bytes.`);
export const unsupportedMediaType = (expected: string) => new HttpError(415, `Unsupported media type: send the body as ${expected}.`);
