// The deposit page's scripts made from the very modules the server runs: the identifier schemes'
// detection and checks (records/metadata/identifiers.ts), so the scheme the form shows as a person
// types is the one the API will store, and the landing page's file-name break points
// (record/file-name-parts.ts) for the deposit page's file list. Made at build time (a macro).
import { moduleScript } from "./module-script" with { type: "macro" };

/** `window.cairnIdentifiers`. */
export const identifierSchemesJs: string = moduleScript(["core/json.ts", "records/metadata/identifiers.ts"], "cairnIdentifiers", [
  "detectSchemes",
  "isValidIdentifier",
  "RECORD_IDENTIFIER_SCHEMES",
  "LOCATION_SCHEMES",
]);

/** `window.cairnFileName`. */
export const fileNamePartsJs: string = moduleScript(["pages/record/file-name-parts.ts"], "cairnFileName", ["nameParts"]);
