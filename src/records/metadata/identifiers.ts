// Identifier schemes of record metadata: validation, scheme detection and normalisation after idutils.
//
// InvenioRDM validates every `{scheme, identifier}` pair with idutils' `is_<scheme>` function,
// detects the scheme when none is sent, and stores idutils' normalised form (normalize_pid).
// The rules below restate idutils' patterns and checksums for the schemes Cairn accepts.

import { ownEntry } from "../../core/json";

type Validator = (value: string) => boolean;

const always: Validator = () => true;

const DOI = /^(doi:\s*|(?:https?:\/\/)?(?:dx\.)?doi\.org\/)?(10\.\d+(?:\.\d+)*\/.+)$/i;
const HANDLE = /^(hdl:\s*|(?:https?:\/\/)?hdl\.handle\.net\/)?([^/.]+(?:\.[^/.]+)*\/.*)$/i;
const ARXIV_NEW = /^(arxiv:)?(\d{4})\.(\d{4,5})(v\d+)?$/i;
const ARXIV_NEW_WITH_CLASS = /^(arxiv:)?(?:[a-z-]+)(?:\.[a-z]{2})?\/(\d{4})\.(\d{4,5})(v\d+)?$/i;
const ARXIV_OLD = /^(arxiv:)?([a-z-]+)(\.[a-z]{2})?(\/\d{4})(\d+)(v\d+)?$/i;
const ADS = /^(ads:|ADS:)?(\d{4}[A-Za-z]\S{13}[A-Za-z.:])$/;
const PMID = /^(pmid:|https?:\/\/pubmed\.ncbi\.nlm\.nih\.gov\/)?(\d+)\/?$/i;
const ARK_SUFFIX = /^ark:\/[0-9bcdfghjkmnpqrstvwxz]+\/.+$/;
const LSID = /^urn:lsid:[^:]+(:[^:]+){2,3}$/i;
// idutils matches GND only at the start; we anchor the end too so trailing junk is not accepted.
const GND = /^(gnd:|GND:|https?:\/\/d-nb\.info\/gnd\/|d-nb\.info\/gnd\/)?(1[012]?\d{7}[0-9X]|[47]\d{6}-\d|[1-9]\d{0,7}-[0-9X]|3\d{7}[0-9X])$/;
const ROR = /^(?:https?:\/\/)?(?:ror\.org\/)?(0\w{6}\d{2})$/i;
const ROR_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const ORCID_URLS = ["http://orcid.org/", "https://orcid.org/"];
// ORCID iDs are ISNIs from two reserved blocks.
const ORCID_BLOCKS: [number, number][] = [
  [15_000_000, 35_000_000],
  [900_000_000_000, 900_100_000_000],
];
const PURL_HOSTS = ["purl.org", "purl.oclc.org", "purl.net", "purl.com", "purl.fdlp.gov"];

const compact = (value: string) => value.replace(/[- ]/g, "").toUpperCase();
const digitOrX = (char: string) => (char === "X" ? 10 : /^\d$/.test(char) ? Number(char) : NaN);

/** ISO 7064 MOD 11-2 check character, as ISNI and ORCID use it. */
export function isIsni(value: string): boolean {
  const v = compact(value);
  if (!/^\d{15}[\dX]$/.test(v)) return false;
  let total = 0;
  for (const char of v.slice(0, 15)) total = (total + Number(char)) * 2;
  return (12 - (total % 11)) % 11 === digitOrX(v[15]!);
}

const stripOrcidUrl = (value: string) => {
  const url = ORCID_URLS.find((prefix) => value.startsWith(prefix));
  return url ? value.slice(url.length) : value;
};

export function isOrcid(value: string): boolean {
  const v = compact(stripOrcidUrl(value));
  if (!isIsni(v)) return false;
  const number = Number(v.slice(0, 15));
  return ORCID_BLOCKS.some(([start, end]) => start <= number && number <= end);
}

export function isRor(value: string): boolean {
  const match = ROR.exec(value);
  if (!match) return false;
  const id = match[1]!.toLowerCase();
  let number = 0;
  for (const char of id.slice(1, 7)) {
    const digit = ROR_ALPHABET.indexOf(char);
    if (digit < 0) return false;
    number = number * 32 + digit;
  }
  return Number(id.slice(7)) === 98 - ((number * 100) % 97);
}

export function isIssn(value: string): boolean {
  const v = compact(value);
  if (v.length !== 8) return false;
  let total = 0;
  for (let i = 0; i < 8; i++) total += (8 - i) * digitOrX(v[i]!);
  return Number.isFinite(total) && total % 11 === 0;
}

export function isEan13(value: string): boolean {
  if (!/^\d{13}$/.test(value)) return false;
  let total = 0;
  for (let i = 0; i < 12; i++) total += Number(value[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (total % 10)) % 10 === Number(value[12]);
}

/** isbnlib's canonical form: the digits (and a final X) of a loosely written ISBN. */
function canonicalIsbn(value: string): string | null {
  if (!/^(?:ISBN(?:-1[03])?:?\s*)?[\dXx\- ]+$/i.test(value.trim())) return null;
  const digits = value
    .replace(/^\s*ISBN(?:-1[03])?:?/i, "")
    .replace(/[^\dXx]/g, "")
    .toUpperCase();
  return /^\d+X?$/.test(digits) ? digits : null;
}

function isIsbn10(value: string): boolean {
  const v = canonicalIsbn(value);
  if (!v || v.length !== 10) return false;
  let total = 0;
  for (let i = 0; i < 9; i++) total += (10 - i) * Number(v[i]);
  const check = (11 - (total % 11)) % 11;
  return (check === 10 ? "X" : String(check)) === v[9];
}

function isIsbn13(value: string): boolean {
  const v = canonicalIsbn(value);
  return v !== null && v.length === 13 && isEan13(v);
}

/** idutils: an ISBN-13 must carry the 978/979 prefix, otherwise it is just an EAN-13. */
export function isIsbn(value: string): boolean {
  if (!isIsbn10(value) && !isIsbn13(value)) return false;
  return ["978", "979"].includes(value.slice(0, 3)) || !isEan13(value);
}

export function isIstc(value: string): boolean {
  const v = compact(value);
  if (!/^[0-9A-F]{16}$/.test(v)) return false;
  const weights = [11, 9, 3, 1];
  let total = 0;
  for (let i = 0; i < 15; i++) total += parseInt(v[i]!, 16) * weights[i % 4]!;
  return (total % 16).toString(16).toUpperCase() === v[15];
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** A URL with a scheme and a host (python's urlparse scheme + netloc). */
export const isUrl: Validator = (value) => /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+/i.test(value);

const isUrn: Validator = (value) => /^urn:(?!\/\/).+$/i.test(value);

function isArk(value: string): boolean {
  if (ARK_SUFFIX.test(value)) return true;
  const url = parseUrl(value);
  return url !== null && url.protocol === "http:" && url.host !== "" && ARK_SUFFIX.test(decodeURI(url.pathname).slice(1));
}

function isPurl(value: string): boolean {
  const url = parseUrl(value);
  return url !== null && ["http:", "https:"].includes(url.protocol) && PURL_HOSTS.includes(url.host) && /^[a-z]+:\/\/[^/]+\/./i.test(value);
}

const isArxiv: Validator = (v) => ARXIV_NEW.test(v) || ARXIV_NEW_WITH_CLASS.test(v) || ARXIV_OLD.test(v);

const VALIDATORS: Record<string, Validator> = {
  ark: isArk,
  arxiv: isArxiv,
  ads: (v) => ADS.test(v.normalize("NFKD")),
  crossreffunderid: always,
  doi: (v) => DOI.test(v),
  ean13: isEan13,
  eissn: isIssn,
  geonames: always,
  gnd: (v) => GND.test(v),
  grid: always,
  handle: (v) => HANDLE.test(v),
  igsn: always,
  isbn: isIsbn,
  isni: isIsni,
  issn: isIssn,
  istc: isIstc,
  lissn: isIssn,
  lsid: (v) => isUrn(v) && LSID.test(v),
  orcid: isOrcid,
  other: always,
  pmid: (v) => PMID.test(v),
  purl: isPurl,
  ror: isRor,
  upc: always,
  url: isUrl,
  urn: isUrn,
  w3id: always,
  wikidata: always,
};

/** RDM_RECORDS_PERSONORG_SCHEMES: person and organisation schemes are deliberately interchangeable. */
export const PERSON_ORG_SCHEMES = ["orcid", "isni", "gnd", "ror"] as const;
/** RDM_RECORDS_IDENTIFIERS_SCHEMES: alternate, related and reference identifiers. */
export const RECORD_IDENTIFIER_SCHEMES = [
  "ark",
  "arxiv",
  "ads",
  "crossreffunderid",
  "doi",
  "ean13",
  "eissn",
  "grid",
  "handle",
  "igsn",
  "isbn",
  "isni",
  "issn",
  "istc",
  "lissn",
  "lsid",
  "pmid",
  "purl",
  "upc",
  "url",
  "urn",
  "w3id",
  "other",
] as const;
/** RDM_RECORDS_LOCATION_SCHEMES. */
export const LOCATION_SCHEMES = ["wikidata", "geonames"] as const;
/** Free-text affiliations and funders (invenio-vocabularies' affiliation/funder schemes). */
export const ORGANISATION_SCHEMES = ["grid", "gnd", "isni", "ror", "doi"] as const;

export function isValidIdentifier(scheme: string, value: string): boolean {
  return ownEntry(VALIDATORS, scheme)?.(value) ?? false;
}

// idutils' detection order; schemes that accept anything are never detected.
const DETECTION_ORDER = ["doi", "ark", "handle", "purl", "lsid", "urn", "ads", "arxiv", "isbn", "issn", "orcid", "isni", "ean13", "istc", "gnd", "ror", "pmid", "url"];
// (present scheme, schemes it rules out): idutils' IDUTILS_SCHEME_FILTER.
const DETECTION_FILTERS: [string, string[]][] = [
  ["url", ["isbn", "istc", "urn", "lsid", "issn"]],
  ["ean13", ["gnd", "pmid"]],
  ["isbn", ["gnd", "pmid"]],
  ["orcid", ["gnd", "pmid"]],
  ["isni", ["gnd", "pmid"]],
  ["issn", ["gnd"]],
];

/** Schemes a value looks like, most specific first (idutils.detect_identifier_schemes). */
export function detectSchemes(value: string): string[] {
  let found = DETECTION_ORDER.filter((scheme) => VALIDATORS[scheme]!(value));
  if (found.includes("gnd") && found.includes("isbn") && value.toLowerCase().startsWith("gnd:")) {
    found = found.filter((s) => s !== "isbn");
  }
  for (const [first, removed] of DETECTION_FILTERS) {
    if (found.includes(first)) found = found.filter((s) => !removed.includes(s));
  }
  const viaHandleNet = /^https?:\/\/hdl\.handle\.net\//.test(value);
  if (found.includes("handle") && ((found.includes("url") && !viaHandleNet) || found.includes("ark") || found.includes("arxiv"))) {
    found = found.filter((s) => s !== "handle");
  }
  return found;
}

function normalizeArxiv(value: string): string {
  let v = value.toLowerCase().startsWith("arxiv:") ? `arXiv:${value.slice(6)}` : `arXiv:${value}`;
  const old = ARXIV_OLD.exec(v);
  // arXiv:math.GT/0309136 -> arXiv:math/0309136, the form arXiv asks services to use.
  if (old?.[3]) v = `${old[1]}${old[2]}${old[4]}${old[5]}${old[6] ?? ""}`;
  const recent = ARXIV_NEW.exec(v) ?? ARXIV_NEW_WITH_CLASS.exec(v);
  if (recent) v = `arXiv:${recent[2]}.${recent[3]}${recent[4] ?? ""}`;
  return v;
}

/** idutils.normalize_pid for a value already known to be valid for its scheme. */
export function normalizeIdentifier(scheme: string, value: string): string {
  switch (scheme) {
    case "doi":
      return DOI.exec(value)?.[2] ?? value;
    case "handle":
      return HANDLE.exec(value)?.[2] ?? value;
    case "ads":
      return ADS.exec(value.normalize("NFKD"))?.[2] ?? value;
    case "pmid":
      return PMID.exec(value)?.[2] ?? value;
    case "arxiv":
      return normalizeArxiv(value);
    case "orcid": {
      const v = compact(stripOrcidUrl(value));
      return [v.slice(0, 4), v.slice(4, 8), v.slice(8, 12), v.slice(12, 16)].join("-");
    }
    case "gnd": {
      const match = GND.exec(value);
      return match ? `gnd:${match[2]}` : value;
    }
    case "issn": {
      const v = compact(value);
      return `${v.slice(0, 4)}-${v.slice(4)}`;
    }
    case "ror":
      return ROR.exec(value)?.[1] ?? value;
    case "urn":
      return value.toLowerCase().startsWith("urn:") ? `urn:${value.slice(4)}` : `urn:${value}`;
    default:
      // ISBNs keep their form: idutils re-hyphenates them from the ISBN range table, which we do not ship.
      return value;
  }
}
