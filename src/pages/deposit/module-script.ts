// Runs at build time as a Bun macro (imported `with { type: "macro" }`), and when Bun transpiles
// the importer from source (tests, `bun run`): TypeScript modules of the server turned into one
// classic browser script, so a rule the pages must also apply in the browser is written once.
// Reading the modules' text here, not by a text import, matters: the bundler already holds those
// files as modules and would not give their text to the executable.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const SRC = join(import.meta.dir, "..", "..");

/**
 * The modules under src/ (`paths`, in order) as one script that sets `window[global]` to the named
 * exports. Their imports of one another are dropped; any other import fails the build.
 */
export function moduleScript(paths: string[], global: string, names: string[]): string {
  const transpiler = new Bun.Transpiler({ loader: "ts", target: "browser" });
  const bodies = paths.map((path) => {
    const code = transpiler.transformSync(readFileSync(join(SRC, path), "utf8"));
    const lines = code.split("\n").filter((line) => {
      const from = /^import .* from "([^"]+)";?$/.exec(line.trim());
      if (!from) return true;
      if (!paths.some((other) => other.replace(/\.ts$/, "").endsWith(from[1]!.replace(/^(\.\.?\/)+/, ""))))
        throw new Error(`${global}: cannot bundle ${from[1]} (imported by ${path})`);
      return false;
    });
    return lines.join("\n").replace(/^export /gm, "");
  });
  return `// Made from src/${paths.join(", src/")} (see src/pages/deposit/module-script.ts).
(function () {
"use strict";
${bodies.join("\n")}
window.${global} = { ${names.join(", ")} };
})();
`;
}
