// Where a file name may break, written once: the landing page's FileName (file-name.tsx) renders
// these parts with <wbr>, and the deposit page's file list gets this very module as a script
// (deposit/schemes-asset.ts), so the two pages wrap a name at the same points. Imports nothing.

/** Where a name may break: after a separator (`_ - . /`), or inside camelCase. */
const BREAKS = /(?<=[_\-./])|(?<=\p{Ll})(?=\p{Lu})/u;

/** The name's parts, each of which stays whole when it fits. */
export const nameParts = (name: string): string[] => name.split(BREAKS).filter(Boolean);
