// The Cairn version, from package.json, and the git commit a build was made from (build.ts defines it).
import pkg from "../package.json" with { type: "json" };

declare const CAIRN_COMMIT: string | undefined;

export const VERSION: string = pkg.version;

/** The commit of a compiled executable; "source" when running from the source tree. */
export const COMMIT: string = typeof CAIRN_COMMIT === "string" ? CAIRN_COMMIT : "source";

/** What `cairn --version` prints: `0.1.0 (abc1234)`, or `0.1.0 (source)`. */
export const VERSION_LINE = `${VERSION} (${COMMIT})`;
