// Settings that are TOML tables (LDAP_ATTRIBUTES) or arrays of tables (OIDC_PROVIDERS, SAML_IDPS),
// or the same as JSON in the environment: read and checked one way, with the same messages, so a
// new kind of sign-in source is its fields only.

/** What is wrong with such a setting (config.ts prefixes the key and where it came from; never the value: it may hold secrets). */
export class ConfigTableError extends Error {}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const NAME_PATTERN = /^[a-z0-9-]{1,40}$/;
const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"];

/** A string of JSON (the environment) parsed, anything else as it is; `empty` for a blank string. */
export function valueOf(raw: unknown, empty: unknown, expected: string): unknown {
  if (typeof raw !== "string") return raw;
  if (!raw.trim()) return empty;
  try {
    return JSON.parse(raw);
  } catch {
    throw new ConfigTableError(`expected ${expected}`);
  }
}

/** Reading one table's fields, each refusal naming the table and the field. */
export interface TableFields {
  fail(field: string, what: string): never;
  /** A string field: "" or missing is `fallback` (or a refusal when required). */
  str(field: string, required: true): string;
  str<F>(field: string, required: false, fallback: F): string | F;
  bool(field: string, fallback: boolean): boolean;
  /** A list of words (no spaces), or `fallback` when missing. */
  words(field: string, fallback: string[], noun: string): string[];
  /** A URL that must use https (http only on a loopback address: a server on the same machine, as in tests). */
  httpsUrl(field: string, value: string): string;
  /** A table of names (`{ email = "mail" }`) overriding `defaults`' values, each a non-empty string (`noun`: "a claim name"). */
  names<T extends { [K in keyof T]: string }>(field: string, defaults: T, example: string, noun: string): T;
}

/**
 * An array of tables (`[[KEY]]` in TOML, a JSON array in the environment), each with only `known`
 * fields and a unique [a-z0-9-] `name`: `read` turns each into its config, given the field readers.
 */
export function parseTables<T>(raw: unknown, what: { item: string; key: string; known: readonly string[] }, read: (fields: TableFields, name: string) => T): T[] {
  const value = valueOf(raw, [], `a JSON array of ${what.item} objects`);
  if (!Array.isArray(value)) throw new ConfigTableError(`expected an array of tables ([[${what.key}]])`);
  const seen = new Set<string>();
  return value.map((entry, i) => {
    if (!isRecord(entry)) throw new ConfigTableError(`${what.item} ${i + 1}: expected a table`);
    const label = typeof entry.name === "string" && entry.name ? `${what.item} '${entry.name}'` : `${what.item} ${i + 1}`;
    const fail = (field: string, why: string): never => {
      throw new ConfigTableError(`${label}: ${field} ${why}`);
    };
    function str(field: string, required: boolean, fallback?: unknown) {
      const v = entry[field];
      if (v === undefined || v === "") return required ? fail(field, "is required") : fallback;
      return typeof v === "string" ? v : fail(field, "must be a string");
    }
    const fields: TableFields = {
      fail,
      str: str as TableFields["str"],
      bool(field, fallback) {
        const v = entry[field];
        if (v === undefined) return fallback;
        return typeof v === "boolean" ? v : fail(field, "must be true or false");
      },
      words(field, fallback, noun) {
        const v = entry[field] ?? fallback;
        if (!Array.isArray(v) || !v.every((w) => typeof w === "string" && /^\S+$/.test(w))) fail(field, `must be a list of ${noun}`);
        return v as string[];
      },
      httpsUrl(field, value) {
        let url: URL | null = null;
        try {
          url = new URL(value);
        } catch {
          fail(field, `is not a URL: ${value}`);
        }
        if (url!.protocol !== "https:" && !(url!.protocol === "http:" && LOOPBACK_HOSTS.includes(url!.hostname)))
          fail(field, "must use https:// (http:// only on a loopback address)");
        return value;
      },
      names(field, defaults, example, noun) {
        const names = { ...defaults };
        const given = entry[field];
        if (given === undefined) return names;
        if (!isRecord(given)) fail(field, `must be a table such as ${example}`);
        for (const [k, v] of Object.entries(given as Record<string, unknown>)) {
          if (!Object.hasOwn(defaults, k)) fail(`${field}.${k}`, `is not one of ${Object.keys(defaults).join(", ")}`);
          if (typeof v !== "string" || !v) fail(`${field}.${k}`, `must be ${noun}`);
          (names as Record<string, string>)[k] = v as string;
        }
        return names;
      },
    };
    for (const key of Object.keys(entry)) if (!what.known.includes(key)) fail(key, `is not a known field (known: ${what.known.join(", ")})`);
    const name = fields.str("name", true);
    if (!NAME_PATTERN.test(name)) fail("name", "must be 1-40 of a-z, 0-9 and -");
    if (seen.has(name)) fail("name", `is used by another ${what.item}`);
    seen.add(name);
    return read(fields, name);
  });
}

/** One table (TOML) or a JSON object (the environment) of names overriding `defaults`: keys not given keep theirs. */
export function parseNameTable<T extends { [K in keyof T]: string }>(
  raw: unknown,
  defaults: T,
  check: (key: string, value: unknown) => string | null,
  example: { toml: string; json: string },
): T {
  const value = valueOf(raw, {}, `a JSON object such as ${example.json}`);
  if (!isRecord(value)) throw new ConfigTableError(`expected a table such as ${example.toml}`);
  const names = { ...defaults };
  for (const [k, v] of Object.entries(value)) {
    if (!Object.hasOwn(defaults, k)) throw new ConfigTableError(`${k} is not one of ${Object.keys(defaults).join(", ")}`);
    const problem = check(k, v);
    if (problem) throw new ConfigTableError(problem);
    (names as Record<string, string>)[k] = v as string;
  }
  return names;
}
