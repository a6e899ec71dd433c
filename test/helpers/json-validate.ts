// Offline validation of the JSON and BibTeX exports against shared/schemas: DataCite JSON 4.5
// (draft 2019-09), CSL-data and GeoJSON (draft-07) with ajv, BibTeX with a real BibTeX parser.
import { parse as parseBibtex } from "@retorquere/bibtex-parser";
import Ajv from "ajv";
import Ajv2019 from "ajv/dist/2019";
import addFormats from "ajv-formats";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** shared/ sits beside the clone (CI copies it there), so the path is relative to the repository root. */
export const SCHEMAS = join(import.meta.dir, "../../../shared/schemas");
const load = (path: string) => JSON.parse(readFileSync(join(SCHEMAS, path), "utf8"));

// DataCite 4.5: the legacy top-level `id` keyword must go; latitude/longitude are custom formats (numbers).
const dataciteSchema = load("datacite-json/datacite-v4.5.json");
delete dataciteSchema.id;
const ajv2019 = new Ajv2019({ strict: false, allErrors: true });
addFormats(ajv2019);
ajv2019.addFormat("latitude", { type: "number", validate: (n: number) => n >= -90 && n <= 90 });
ajv2019.addFormat("longitude", { type: "number", validate: (n: number) => n >= -180 && n <= 180 });
const dataciteValidator = ajv2019.compile(dataciteSchema);

const ajv7 = new Ajv({ strict: false, allErrors: true });
addFormats(ajv7);
// csl-data.json names EDTF-ish formats without defining them; they are documentation only.
for (const name of ["year", "yearmonth", "datetime", "year-range", "yearmonth-range", "date-range", "datetime-range"]) ajv7.addFormat(name, true);
ajv7.addSchema(load("csl/csl-data.json"));
const cslItemValidator = ajv7.getSchema("https://resource.citationstyles.org/schema/v1.0/input/json/csl-data.json#/items")!;
const geojsonValidator = ajv7.compile(load("geojson/FeatureCollection.json"));

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

function errorsOf(validate: Validate, data: unknown): string[] {
  if (validate(data)) return [];
  return ((validate.errors ?? []) as { instancePath: string; message?: string; params?: unknown }[]).map(
    (e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`,
  );
}

/** Schema errors of a DataCite JSON document (empty when valid). */
export const dataciteJsonErrors = (doc: unknown) => errorsOf(dataciteValidator, doc);
/** Schema errors of one CSL JSON item. */
export const cslItemErrors = (item: unknown) => errorsOf(cslItemValidator, item);
/** Schema errors of a GeoJSON FeatureCollection. */
export const geojsonErrors = (doc: unknown) => errorsOf(geojsonValidator, doc);

/** Parses BibTeX and fails (throws) on any parse error; returns the entries. */
export function parseBibtexStrict(text: string) {
  // No sentence-casing: the values read back must be the values written.
  const library = parseBibtex(text, { sentenceCase: false });
  if (library.errors.length) throw new Error(`BibTeX parse errors: ${JSON.stringify(library.errors)}\n${text}`);
  return library.entries;
}
