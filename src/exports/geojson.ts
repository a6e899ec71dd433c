// GeoJSON export (RFC 7946 FeatureCollection) of `metadata.locations.features`, as InvenioRDM's geojson schema.
import { list, type JsonObject } from "../core/json";
import type { RecordDocument } from "../core/record-document";
import { nonBlank } from "./record-fields";
import type { ExportFormat } from "./types";

/** Cairn decision 3: both the spec's media type and InvenioRDM's. */
export const geojsonFormat: ExportFormat = {
  id: "geojson",
  label: "GeoJSON",
  mediaTypes: ["application/vnd.geojson+json", "application/vnd.geo+json"],
  extension: "geojson",
  render: (record) => JSON.stringify(featureCollection(record)),
};

export function featureCollection(record: RecordDocument): JsonObject {
  return { type: "FeatureCollection", features: list(record.metadata?.locations?.features).map(feature) };
}

// RFC 7946 §3.2: a Feature has `geometry` (null for a place known only by name) and `properties`.
function feature(location: JsonObject): JsonObject {
  const properties: JsonObject = {};
  if (nonBlank(location.place)) properties.place = location.place;
  if (nonBlank(location.description)) properties.description = location.description;
  const identifiers = list(location.identifiers).filter((i) => nonBlank(i?.identifier));
  if (identifiers.length) properties.identifiers = identifiers.map((i) => ({ scheme: i.scheme, identifier: i.identifier }));
  const g = location.geometry;
  const geometry = g && typeof g.type === "string" ? g : null;
  return { type: "Feature", geometry, properties };
}
