// Reading JSON (and form) request bodies with a size limit, without trusting Content-Length alone.
import { HttpError, payloadTooLarge } from "./errors";

export const isJsonContentType = (contentType: string | null): boolean =>
  !!contentType && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType.trim());

export const isFormContentType = (contentType: string | null): boolean =>
  !!contentType && /^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType.trim());

/** Reads a form body (`a=1&b=2`, as OAI-PMH harvesters POST); 413 past `limit` bytes. Repeated names are kept. */
export async function readFormBody(request: Request, limit: number): Promise<URLSearchParams> {
  return new URLSearchParams(await readBodyText(request, limit));
}

/** Reads and parses a JSON body; 413 past `limit` bytes, 400 when it is not JSON. An empty body is `{}`. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const text = await readBodyText(request, limit);
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Unable to decode JSON data in request body.");
  }
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
