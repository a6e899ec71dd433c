// Identifier-bearing metadata: alternate identifiers, related identifiers, references and locations.
import { type Ctx, MISSING, type Obj, checkKeys, fail, put, readIdentifierPair, readIdentifierSet, readList, readObject, readString, readVocabularyRef } from "./fields";
import { LOCATION_SCHEMES, RECORD_IDENTIFIER_SCHEMES } from "./identifiers";

/** Alternate identifiers: one per scheme, schemes of RDM_RECORDS_IDENTIFIERS_SCHEMES. */
export function readAlternateIdentifiers(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  return readIdentifierSet(ctx, value, field, RECORD_IDENTIFIER_SCHEMES);
}

/** RelatedIdentifierSchema: identifier + scheme, relation_type (required) and resource_type from vocabularies. */
export function readRelatedIdentifiers(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  return readList(ctx, value, field, (item, path) => {
    const obj = readObject(ctx, item, path);
    if (!obj) return undefined;
    checkKeys(ctx, obj, path, ["identifier", "scheme", "relation_type", "resource_type"]);
    const out = readIdentifierPair(ctx, obj, path, RECORD_IDENTIFIER_SCHEMES);
    put(out, "relation_type", readVocabularyRef(ctx, obj.relation_type, `${path}.relation_type`, "relationtypes", true));
    put(out, "resource_type", readVocabularyRef(ctx, obj.resource_type, `${path}.resource_type`, "resourcetypes"));
    return out;
  });
}

/** ReferenceSchema: a required free-text reference with an optional identifier. */
export function readReferences(ctx: Ctx, value: unknown, field: string): Obj[] | undefined {
  return readList(ctx, value, field, (item, path) => {
    const obj = readObject(ctx, item, path);
    if (!obj) return undefined;
    checkKeys(ctx, obj, path, ["reference", "identifier", "scheme"]);
    const reference = readString(ctx, obj.reference, `${path}.reference`);
    if (obj.reference === undefined || obj.reference === null) fail(ctx, `${path}.reference`, MISSING);
    const out: Obj = {};
    put(out, "reference", reference);
    return { ...out, ...readIdentifierPair(ctx, obj, path, RECORD_IDENTIFIER_SCHEMES, { identifierRequired: false }) };
  });
}

const GEOMETRY_TYPES = ["Point", "MultiPoint", "Polygon"];
const RANGE_ERROR = "Longitude must be between -180 and 180 and latitude between -90 and 90.";

/** A GeoJSON position [longitude, latitude(, altitude)]; null when malformed, "range" when out of bounds. */
function checkPosition(value: unknown): "ok" | "range" | null {
  if (!Array.isArray(value) || value.length < 2 || value.length > 3) return null;
  if (!value.every((n) => typeof n === "number" && Number.isFinite(n))) return null;
  const [lon, lat] = value as number[];
  return Math.abs(lon!) <= 180 && Math.abs(lat!) <= 90 ? "ok" : "range";
}

function positionsError(positions: unknown[]): string | undefined {
  const results = positions.map(checkPosition);
  if (results.includes(null)) return "Positions must be [longitude, latitude] numbers.";
  if (results.includes("range")) return RANGE_ERROR;
  return undefined;
}

/** Why GeoJSON coordinates do not fit the geometry type, or undefined when they do (RFC 7946). */
function coordinatesError(type: string, coordinates: unknown[]): string | undefined {
  if (type === "Point") return positionsError([coordinates]);
  if (type === "MultiPoint") return coordinates.length === 0 ? "A MultiPoint needs at least one position." : positionsError(coordinates);
  if (coordinates.length === 0 || !coordinates.every(Array.isArray)) return "A Polygon is a list of linear rings.";
  for (const ring of coordinates as unknown[][]) {
    const error = positionsError(ring);
    if (error) return error;
    if (ring.length < 4) return "Each linear ring must contain at least 4 positions.";
    if (JSON.stringify(ring[0]) !== JSON.stringify(ring[ring.length - 1])) return "Each linear ring must end where it started.";
  }
  return undefined;
}

/** GeometryObjectSchema: Point, MultiPoint or Polygon, kept as sent (lon/lat order) even when invalid. */
function readGeometry(ctx: Ctx, value: unknown, field: string): Obj | undefined {
  const obj = readObject(ctx, value, field);
  if (!obj) return undefined;
  checkKeys(ctx, obj, field, ["type", "coordinates"]);
  const type = readString(ctx, obj.type, `${field}.type`);
  if (obj.type === undefined || obj.type === null) fail(ctx, `${field}.type`, MISSING);
  else if (type !== undefined && !GEOMETRY_TYPES.includes(type)) fail(ctx, `${field}.type`, `Unsupported value: ${type}`);
  if (obj.coordinates === undefined || obj.coordinates === null) fail(ctx, `${field}.coordinates`, MISSING);
  else if (!Array.isArray(obj.coordinates)) fail(ctx, `${field}.coordinates`, "Not a valid list.");
  else if (type && GEOMETRY_TYPES.includes(type)) {
    const error = coordinatesError(type, obj.coordinates);
    if (error) fail(ctx, `${field}.coordinates`, error);
  }
  if (type === undefined || !Array.isArray(obj.coordinates)) return undefined;
  return { type, coordinates: obj.coordinates };
}

/** LocationSchema: each feature needs at least one of geometry, place, identifiers, description. */
function readFeature(ctx: Ctx, item: unknown, path: string): Obj | undefined {
  const obj = readObject(ctx, item, path);
  if (!obj) return undefined;
  checkKeys(ctx, obj, path, ["geometry", "place", "description", "identifiers"]);
  const out: Obj = {};
  put(out, "geometry", readGeometry(ctx, obj.geometry, `${path}.geometry`));
  put(out, "place", readString(ctx, obj.place, `${path}.place`) || undefined);
  put(out, "description", readString(ctx, obj.description, `${path}.description`) || undefined);
  const identifiers = readList(ctx, obj.identifiers, `${path}.identifiers`, (entry, entryPath) => {
    const pair = readObject(ctx, entry, entryPath);
    if (!pair) return undefined;
    checkKeys(ctx, pair, entryPath, ["scheme", "identifier"]);
    return readIdentifierPair(ctx, pair, entryPath, LOCATION_SCHEMES);
  });
  put(out, "identifiers", identifiers && identifiers.length > 0 ? identifiers : undefined);
  if (Object.keys(out).length === 0) {
    fail(ctx, path, "At least one of ['geometry', 'place', 'identifiers', 'description'] must be present.");
    return undefined;
  }
  return out;
}

/** `{"features": [...]}`, stored without GeoJSON Feature/FeatureCollection wrappers. */
export function readLocations(ctx: Ctx, value: unknown, field: string): Obj | undefined {
  const obj = readObject(ctx, value, field);
  if (!obj) return undefined;
  checkKeys(ctx, obj, field, ["features"]);
  const features = readList(ctx, obj.features, `${field}.features`, (item, path) => readFeature(ctx, item, path));
  return features ? { features } : {};
}
