// Serialisations leave out what a record does not have: consumers of DataCite and schema.org
// reject or mis-read empty values (InvenioRDM's serializers drop them as `missing`).

/** Drops undefined members and empty lists, recursively. */
export function compact(value: any): any {
  if (Array.isArray(value)) return value.map(compact);
  if (!value || typeof value !== "object") return value;
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = compact(v);
  }
  return out;
}
