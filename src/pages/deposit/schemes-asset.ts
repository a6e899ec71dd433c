// The identifier schemes' detection and checks for the deposit page, made from the very module
// the server validates with (records/metadata/identifiers.ts), so the scheme the form shows as a
// person types is the one the API will store. The TypeScript is stripped of its types at start-up
// and wrapped as a classic script exposing `window.cairnIdentifiers`.
// Bun imports these files' text; TypeScript sees only the modules (which have no default export).
// @ts-expect-error -- a text import of a TypeScript module
import jsonSource from "../../core/json.ts" with { type: "text" };
// @ts-expect-error -- a text import of a TypeScript module
import identifiersSource from "../../records/metadata/identifiers.ts" with { type: "text" };
// @ts-expect-error -- a text import of a TypeScript module
import fileNamePartsSource from "../record/file-name-parts.ts" with { type: "text" };

const transpiler = new Bun.Transpiler({ loader: "ts", target: "browser" });

/** One module's code as script statements: its imports of `bundled` modules dropped, `export` removed. */
function statements(source: string, bundled: string[]): string {
  const code = transpiler.transformSync(String(source));
  const lines = code.split("\n").filter((line) => {
    const from = /^import .* from "([^"]+)";?$/.exec(line.trim());
    if (!from) return true;
    // Another import would be missing in the browser: fail at start-up, not on the page.
    if (!bundled.some((name) => from[1]!.endsWith(name))) throw new Error(`identifier-schemes.js: cannot bundle ${from[1]}`);
    return false;
  });
  return lines.join("\n").replace(/^export /gm, "");
}

export const identifierSchemesJs = `// Made from src/records/metadata/identifiers.ts (see src/pages/deposit/schemes-asset.ts).
(function () {
"use strict";
${statements(jsonSource, [])}
${statements(identifiersSource, ["core/json"])}
window.cairnIdentifiers = { detectSchemes, isValidIdentifier, RECORD_IDENTIFIER_SCHEMES, LOCATION_SCHEMES };
})();
`;

/** The landing page's file-name break points (record/file-name-parts.ts) for the deposit page's file list: `window.cairnFileName`. */
export const fileNamePartsJs = `// Made from src/pages/record/file-name-parts.ts (see src/pages/deposit/schemes-asset.ts).
(function () {
"use strict";
${statements(fileNamePartsSource, [])}
window.cairnFileName = { nameParts };
})();
`;
