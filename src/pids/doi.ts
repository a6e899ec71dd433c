// DOI strings: recognising and normalising the forms people paste, minting ours, resolver links.

// The forms idutils accepts before the DOI itself: `doi:`, resolver URLs (with or without a scheme).
const DOI_PREFIXES = [
  /^doi:\s*/i,
  /^info:doi\//i,
  /^(?:https?:\/\/)?(?:dx\.)?doi\.org\//i,
  // DataCite's test resolvers, so a DOI copied from a test-mode landing page normalises too.
  /^(?:https?:\/\/)?handle\.(?:stage|test)\.datacite\.org\//i,
];

// ISO 26324: `10.` + registrant code (digits, dot-separated sub-codes) + `/` + a non-empty suffix.
const BARE_DOI = /^10\.\d+(?:\.\d+)*\/\S+$/;

/**
 * The bare DOI, lower-cased (DOIs are case-insensitive, and one spelling keeps lookups and
 * uniqueness checks simple), or null when the value is not a DOI.
 */
export function normalizeDoi(value: string): string | null {
  let doi = value.trim();
  for (const prefix of DOI_PREFIXES) {
    if (!prefix.test(doi)) continue;
    const wasUrl = !/^(?:doi:|info:doi)/i.test(doi);
    doi = doi.replace(prefix, "");
    // A DOI inside a URL may be percent-encoded (`10.1234%2Fabc`, `a%20b`); the bare form is not.
    if (wasUrl) {
      try {
        doi = decodeURIComponent(doi);
      } catch {
        return null;
      }
    }
    break;
  }
  return BARE_DOI.test(doi) ? doi.toLowerCase() : null;
}

/** A DOI for a record from DATACITE_FORMAT (InvenioRDM's `"{prefix}/{id}"` placeholders). */
export function mintDoi(format: string, prefix: string, id: string): string {
  return format.replaceAll("{prefix}", prefix.replace(/\/+$/, "")).replaceAll("{id}", id);
}

/**
 * Where a DOI resolves. In test mode DataCite registers into its test handle system, which
 * doi.org does not know; InvenioRDM links those to handle.stage.datacite.org (behaviour §4).
 */
export function doiResolverUrl(doi: string, testMode: boolean): string {
  const base = testMode ? "https://handle.stage.datacite.org/" : "https://doi.org/";
  // Escape only what would break the URL (`%`, `#`, `?`, spaces...), keeping `/` and `:` readable.
  return base + encodeURI(doi).replace(/[#?]/g, encodeURIComponent);
}

/** Whether a DOI falls under a prefix (e.g. an external DOI that uses the instance's own prefix). */
export function hasPrefix(doi: string, prefix: string): boolean {
  const bare = normalizeDoi(doi);
  const cleanPrefix = prefix.trim().replace(/\/+$/, "").toLowerCase();
  if (!bare || !cleanPrefix) return false;
  return bare.startsWith(`${cleanPrefix}/`);
}
