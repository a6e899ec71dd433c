// Offline validation of exports and OAI-PMH responses against the official schemas in shared/schemas:
// XSD through libxml2's xmllint compiled to WebAssembly (xmllint-wasm), DCAT-AP through the 2.1.1 SHACL shapes.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import rdf from "@zazuko/env-node";
import SHACLValidator from "rdf-validate-shacl";
import { RdfXmlParser } from "rdfxml-streaming-parser";
import { validateXML, type XMLFileInfo } from "xmllint-wasm";

/** shared/schemas; CI copies shared/ beside the clone, as on the development machine. */
export const SCHEMAS_DIR = join(import.meta.dir, "../../../shared/schemas");

/** The XSD entry points, each loaded with its local imports and includes. */
export const XSD = {
  datacite: "datacite/kernel-4.5/metadata.xsd",
  oai_dc: "oai_dc/oai_dc.xsd",
  marc21: "marc21/MARC21slim.xsd",
  /** Any OAI-PMH response, payloads (oai_dc, marc21, DataCite 4.5, oai_datacite) included. */
  "oai-pmh": "oai-pmh/oai-pmh-with-formats.xsd",
} as const;
export type XsdName = keyof typeof XSD;

export interface XsdResult {
  valid: boolean;
  /** xmllint's messages for this document (`doc-N.xml:<line>: ...`), without schema-loading warnings. */
  errors: string[];
}

let schemaFiles: XMLFileInfo[] | undefined;

/** Every .xsd under shared/schemas, named by its relative path so relative schemaLocations resolve in xmllint's memory file system. */
function allSchemaFiles(): XMLFileInfo[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : path.endsWith(".xsd") ? [path] : [];
    });
  schemaFiles ??= walk(SCHEMAS_DIR).map((path) => ({ fileName: `schemas/${relative(SCHEMAS_DIR, path)}`, contents: readFileSync(path, "utf8") }));
  return schemaFiles;
}

const docName = (index: number) => `doc-${index}.xml`;

/**
 * Validates documents against one schema in a single xmllint run (each run starts a worker and
 * loads the WebAssembly module, ~50-100 ms: batch documents when there are many).
 * Returns one result per document, in order.
 */
export async function validateXsd(schema: XsdName, ...documents: string[]): Promise<XsdResult[]> {
  const schemaFile = `schemas/${XSD[schema]}`;
  const files = allSchemaFiles();
  const xml = documents.map((contents, i) => ({ fileName: docName(i), contents }));
  let output: string;
  try {
    const result = await validateXML({ xml, schema: files.filter((f) => f.fileName === schemaFile), preload: files.filter((f) => f.fileName !== schemaFile) });
    output = result.rawOutput;
  } catch (error) {
    // xmllint exits with a code other than "invalid" when a document is not well-formed.
    if (documents.length > 1) return (await Promise.all(documents.map((d) => validateXsd(schema, d)))).flat();
    return [{ valid: false, errors: [String((error as Error).message ?? error)] }];
  }
  const lines = output.split("\n").filter((line) => line.trim() && !line.includes("Schemas parser warning"));
  return documents.map((_, i) => {
    const name = docName(i);
    return {
      valid: lines.includes(`${name} validates`),
      errors: lines.filter((line) => line.startsWith(`${name}:`) || line === `${name} fails to validate`),
    };
  });
}

/** Throws (failing the test) with xmllint's messages and the numbered document text if any document is invalid. */
export async function expectXsdValid(schema: XsdName, ...documents: string[]): Promise<void> {
  const results = await validateXsd(schema, ...documents);
  const failures = results.flatMap((r, i) => (r.valid ? [] : [`${docName(i)} is not valid against ${XSD[schema]}:\n  ${r.errors.join("\n  ")}\n${numbered(documents[i]!)}`]));
  if (failures.length) throw new Error(failures.join("\n\n"));
}

function numbered(text: string): string {
  return text
    .split("\n")
    .map((line, i) => `${String(i + 1).padStart(4)}| ${line}`)
    .join("\n");
}

// DCAT-AP 2.1.1: mandatory shapes, ranges, controlled vocabularies and deprecated URIs. The
// recommended shapes only warn (a dataset without spatial coverage is still DCAT-AP), and the two
// *imports.ttl files hold nothing but remote owl:imports, which are not fetched.
const DCAT_SHAPES = ["dcat-ap_2.1.1_shacl_shapes.ttl", "dcat-ap_2.1.1_shacl_range.ttl", "dcat-ap_2.1.1_shacl_mdr-vocabularies.shape.ttl", "dcat-ap_2.1.1_shacl_deprecateduris.ttl"];
export const DCAT_RECOMMENDED_SHAPES = "dcat-ap_2.1.1_shacl_shapes_recommended.ttl";

const shapeCache = new Map<string, Promise<any>>();
function loadShapes(files: string[]) {
  const key = files.join(",");
  if (!shapeCache.has(key)) {
    shapeCache.set(
      key,
      (async () => {
        const dataset = rdf.dataset();
        for (const file of files) await dataset.import(rdf.fromFile(join(SCHEMAS_DIR, "dcat-ap/2.1.1", file)));
        return dataset;
      })(),
    );
  }
  return shapeCache.get(key)!;
}

/** RDF/XML text -> an RDF/JS dataset (rejects on malformed RDF/XML). */
export function parseRdfXml(text: string, baseIRI = "http://127.0.0.1:5000/"): Promise<any> {
  const dataset = rdf.dataset();
  const parser = new RdfXmlParser({ baseIRI });
  return new Promise((resolve, reject) => {
    parser.on("data", (quad) => dataset.add(quad));
    parser.on("error", reject);
    parser.on("end", () => resolve(dataset));
    parser.write(text);
    parser.end();
  });
}

export interface ShaclResult {
  conforms: boolean;
  /** `<severity> <focus node> <path>: <message>` per validation result. */
  messages: string[];
}

/** SHACL validation of a DCAT-AP RDF/XML document; `recommended` adds the recommended shapes (warnings). */
export async function validateDcat(rdfXml: string, options: { recommended?: boolean } = {}): Promise<ShaclResult> {
  const shapes = await loadShapes(options.recommended ? [...DCAT_SHAPES, DCAT_RECOMMENDED_SHAPES] : DCAT_SHAPES);
  const report = await new SHACLValidator(shapes, { factory: rdf }).validate(await parseRdfXml(rdfXml));
  const messages = report.results.map((r) => {
    const severity = r.severity?.value.split("#")[1] ?? "?";
    const text = r.message.map((m) => m.value).join("; ") || r.sourceConstraintComponent?.value.split("#")[1];
    return `${severity} ${r.focusNode?.value} ${r.path?.value ?? ""}: ${text}`;
  });
  return { conforms: report.conforms, messages };
}

/** Throws with every SHACL result if the document does not conform to the DCAT-AP 2.1.1 shapes. */
export async function expectDcatConforms(rdfXml: string): Promise<void> {
  const { conforms, messages } = await validateDcat(rdfXml);
  if (!conforms) throw new Error(`DCAT-AP 2.1.1 SHACL report does not conform:\n  ${messages.join("\n  ")}\n${numbered(rdfXml)}`);
}
