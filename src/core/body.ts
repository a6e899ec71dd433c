// Reading JSON (and form) request bodies with a size limit, without trusting Content-Length alone.
import { t } from "elysia";
import { badRequest, payloadTooLarge, validationError } from "./errors";

export const isJsonContentType = (contentType: string | null): boolean => !!contentType && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType.trim());

export const isFormContentType = (contentType: string | null): boolean => !!contentType && /^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType.trim());

/** Reads a form body (`a=1&b=2`, as OAI-PMH harvesters POST); 413 past `limit` bytes. Repeated names are kept. */
export async function readFormBody(request: Request, limit: number): Promise<URLSearchParams> {
  return new URLSearchParams(await readBodyText(request, limit));
}

/**
 * Deepest nesting of lists and objects in a JSON body. Parsing copes with far deeper, but what
 * walks the result afterwards (validation, storage, rendering) recurses and would overflow.
 */
export const MAX_JSON_DEPTH = 100;

/** Reads and parses a JSON body; 413 past `limit` bytes, 400 when it is not JSON or nests too deep. An empty body is `{}`. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const text = await readBodyText(request, limit);
  if (text.trim() === "") return {};
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw badRequest(`The JSON body nests lists and objects deeper than ${MAX_JSON_DEPTH} levels.`);
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("Unable to decode JSON data in request body.");
  }
}

/** True when brackets outside strings open deeper than `max` (checked on the text, before parsing). */
function nestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip the string: to the next quote not escaped by a backslash.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) {
      depth--;
    }
  }
  return false;
}

const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "a list" : typeof value === "string" ? "a string" : `a ${typeof value}`);

/**
 * A JSON body must be an object; a list too where the route takes one (starting uploads). A
 * number, string, `true` or `null` is never a resource: 400, rather than a draft made of nothing.
 */
export function requireJsonObject(value: unknown, listAllowed: boolean): void {
  if (typeof value === "object" && value !== null && (listAllowed || !Array.isArray(value))) return;
  // The field "" is the body as a whole, as the services report a body of the wrong shape.
  throw validationError([{ field: "", messages: [`The request body must be a JSON object${listAllowed ? " or a list" : ""}, not ${kindOf(value)}.`] }]);
}

/**
 * The body schema of every action route (publish, edit, new version, submit-review, a request's
 * accept/decline/cancel...): its JSON is read by `readActionPayload`, not `requireJsonObject`.
 */
export const actionPayloadBody = t.Optional(
  t.Unknown({ description: 'Optional: an object such as {"payload": {"content": "..."}}; none, null, [] and {} mean no payload.', "x-action-payload": true }),
);

/** True when a route's body schema is `actionPayloadBody`. */
export const takesActionPayload = (schema: unknown): boolean => (schema as Record<string, unknown> | undefined)?.["x-action-payload"] === true;

/**
 * An action's optional payload, `{}` when there is none. InvenioRDM tests the payload with
 * `if data:`, so no body, `null`, `[]` and `{}` all mean "no payload" (zen4R sends `[]` for no
 * message); an object is the payload; anything else (a list with items, a string, a number, a
 * boolean) is still a 400.
 */
export function readActionPayload(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return {};
  requireJsonObject(value, false);
  return value as Record<string, unknown>;
}

/** The body as UTF-8 text, read in chunks so a lying Content-Length cannot exceed `limit`. */
async function readBodyText(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw payloadTooLarge(limit);
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw payloadTooLarge(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}
