// Lenient reading of parsed JSON (record documents, vocabulary entries): what may be missing or
// of another type reads as empty, so mapping code never has to guard every step.

/** A JSON object read leniently: any member may be absent or of any type. */
export type JsonObject = Record<string, any>;

/** The value when it is an array, else an empty one (a missing or malformed list has no items). */
export const list = (value: unknown): any[] => (Array.isArray(value) ? value : []);

/** The object items of a list (search indexing reads members of each without guarding every one). */
export const objects = (value: unknown): JsonObject[] => list(value).filter((x) => x !== null && typeof x === "object");

/**
 * `table[key]` only when `key` is the table's own entry: a name taken from a client (`toString`,
 * `constructor`) must not reach the methods every plain object inherits.
 */
export const ownEntry = <T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined => (typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined);
