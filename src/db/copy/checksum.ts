// A table's checksum, computed the same way from either engine's rows: each value normalised by its
// column's kind (JSON parsed and written again with sorted keys, so that JSON equal in meaning
// sums alike whatever its spacing and key order; numbers as numbers; blobs as hex), the rows hashed in primary-key order with SHA-256.
import { createHash } from "node:crypto";
import type { ColumnKind } from "./plan";

type Canonical = null | boolean | number | string | Canonical[] | { [key: string]: Canonical };

function canonical(value: unknown): Canonical {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    const out: Record<string, Canonical> = {};
    for (const key of Object.keys(value).sort()) out[key] = canonical((value as Record<string, unknown>)[key]);
    return out;
  }
  return value as Canonical;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");

/** A value as both engines' copies of it compare: what the checksum hashes. */
export function normalise(kind: ColumnKind, value: unknown): Canonical {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case "json": {
      const text = typeof value === "string" ? value : Buffer.isBuffer(value) ? value.toString("utf8") : JSON.stringify(value);
      try {
        return JSON.stringify(canonical(JSON.parse(text)));
      } catch {
        return `unparsed:${text}`;
      }
    }
    case "integer":
    case "real":
      return Number(value);
    case "blob":
      return value instanceof Uint8Array ? hex(value) : `text:${String(value)}`;
    default:
      return value instanceof Uint8Array ? hex(value) : String(value);
  }
}

/** Hashes a table's rows, fed in primary-key order. */
export function tableHasher(kinds: ColumnKind[]) {
  const hash = createHash("sha256");
  let rows = 0;
  return {
    add(row: unknown[]) {
      hash.update(JSON.stringify(row.map((v, i) => normalise(kinds[i]!, v))));
      hash.update("\n");
      rows++;
    },
    result: () => ({ rows, sha256: hash.digest("hex") }),
  };
}
