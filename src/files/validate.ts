// Checking file keys (path and body) and reading the body that starts uploads into typed items;
// 400 naming the problem (with each item's index).
import { badRequest, type FieldError, validationError } from "../core/errors";
import { MAX_KEY_BYTES, type FileInit } from "./model";

/** Why a key is refused, or null: keys may hold `/` and any Unicode, but no path tricks. */
export function keyProblem(key: string): string | null {
  if (!key) return "A file key must not be empty.";
  if (new TextEncoder().encode(key).byteLength > MAX_KEY_BYTES) return `A file key must be at most ${MAX_KEY_BYTES} bytes long.`;
  // biome-ignore lint: control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f-\u009f]/.test(key)) return "A file key must not contain control characters.";
  if (key.startsWith("/") || key.endsWith("/")) return "A file key must not start or end with '/'.";
  for (const segment of key.split("/")) {
    if (segment === "") return "A file key must not contain empty path segments ('//').";
    if (segment === "." || segment === "..") return "A file key must not contain '.' or '..' segments.";
  }
  if (key.normalize("NFC") !== key) return "A file key must be in Unicode normal form C.";
  return null;
}

/** 400 unless `key` is a valid file key. */
export function checkKey(key: string) {
  const problem = keyProblem(key);
  if (problem) throw badRequest(problem);
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

function parseItem(item: unknown, i: number, errors: FieldError[]): FileInit | null {
  const err = (field: string, message: string) => {
    errors.push({ field: `${i}.${field}`, messages: [message] });
    return null;
  };
  if (!isObject(item)) return err("key", "Each item must be an object with a key.");
  if (typeof item.key !== "string") return err("key", "Missing data for required field.");
  const problem = keyProblem(item.key);
  if (problem) return err("key", problem);
  if (item.size !== undefined && !isCount(item.size)) return err("size", "Must be a whole number of bytes.");
  if (item.checksum !== undefined && (typeof item.checksum !== "string" || !/^md5:[0-9a-f]{32}$/i.test(item.checksum))) return err("checksum", "Must be 'md5:' and 32 hex digits.");
  if (item.metadata !== undefined && item.metadata !== null && !isObject(item.metadata)) return err("metadata", "Must be an object.");
  const transferType = isObject(item.transfer) ? item.transfer.type : undefined;
  const storageClass = item.storage_class ?? (transferType === "F" ? "F" : "L");
  if (storageClass !== "L" && storageClass !== "F") {
    return err("storage_class", storageClass === "R" ? "Remote files (storage class R) are not supported." : "Must be L or F.");
  }
  const base = {
    key: item.key,
    size: item.size ?? null,
    checksum: typeof item.checksum === "string" ? item.checksum.toLowerCase() : null,
    metadata: (item.metadata as Record<string, unknown> | undefined) ?? null,
  };
  if (storageClass === "F" || transferType === "F") {
    const uri = item.uri ?? (isObject(item.transfer) ? item.transfer.url : undefined);
    if (typeof uri !== "string" || !URL.canParse(uri) || !/^https?:$/.test(new URL(uri).protocol)) return err("uri", "A fetched file needs an http(s) URL in 'uri'.");
    return { ...base, storageClass: "F", uri, transfer: { type: "F", attempts: 0, error: null } };
  }
  if (transferType === "M") {
    const { parts, part_size } = item.transfer;
    if (!isCount(parts) || parts < 1 || parts > 10_000) return err("transfer.parts", "Must be a number of parts between 1 and 10000.");
    if (!isCount(part_size) || part_size < 1) return err("transfer.part_size", "Must be a positive number of bytes.");
    if (base.size === null) return err("size", "A multipart upload needs the file's total size.");
    if (base.size > parts * part_size || base.size <= (parts - 1) * part_size) return err("transfer.parts", "parts * part_size must cover the size, with the last part not empty.");
    return { ...base, storageClass: "L", uri: null, transfer: { type: "M", parts, part_size } };
  }
  if (transferType !== undefined && transferType !== "L") return err("transfer.type", "Must be L (local), F (fetch) or M (multipart).");
  return { ...base, storageClass: "L", uri: null, transfer: { type: "L" } };
}

/** `[{key, ...}, ...]` (a single object is accepted too); every problem reported with its index. */
export function parseFileInits(body: unknown): FileInit[] {
  const items = Array.isArray(body) ? body : isObject(body) ? [body] : null;
  if (!items || items.length === 0) throw validationError([{ field: "", messages: ['Send a list of files: [{"key": "name.ext"}].'] }]);
  const errors: FieldError[] = [];
  const parsed = items.map((item, i) => parseItem(item, i, errors));
  const keys = new Set<string>();
  parsed.forEach((p, i) => {
    if (p && keys.has(p.key)) errors.push({ field: `${i}.key`, messages: [`The key '${p.key}' is listed twice.`] });
    if (p) keys.add(p.key);
  });
  if (errors.length) throw validationError(errors);
  return parsed as FileInit[];
}
