// Metadata and custom-field checking: normalised output, InvenioRDM's error paths and messages,
// unknown vocabulary ids, EDTF dates, identifier schemes.
import { describe, expect, test } from "bun:test";
import { checkMetadata, PUBLISHER_REQUIRED, type VocabularyLookup } from "../../src/records/metadata/check";
import { parseEdtf } from "../../src/records/metadata/edtf";
import { detectSchemes, isValidIdentifier, normalizeIdentifier } from "../../src/records/metadata/identifiers";
import { shippedVocabularies } from "../../src/vocabularies/fixtures";

// The shipped controlled lists plus a few hand-made directory entries.
const directories: Record<string, Record<string, any>[]> = {
  affiliations: [{ id: "01ggx4157", name: "CERN", acronym: "CERN", country: "CH", identifiers: [{ scheme: "ror", identifier: "01ggx4157" }], title: { en: "CERN" } }],
  funders: [{ id: "00k4n6c32", name: "European Commission", country: "BE", identifiers: [{ scheme: "ror", identifier: "00k4n6c32" }], title: { en: "European Commission" } }],
  awards: [
    {
      id: "00k4n6c32::101004490",
      number: "101004490",
      title: { en: "Open science for glaciers" },
      acronym: "GLACIO",
      funder: { id: "00k4n6c32" },
      identifiers: [{ scheme: "url", identifier: "https://cordis.europa.eu/projects/101004490" }],
    },
  ],
  subjects: [{ id: "https://id.nlm.nih.gov/mesh/D000001", scheme: "MeSH", subject: "Calcimycin" }],
};
const entries = new Map<string, Map<string, Record<string, any>>>();
for (const { type, entries: list } of shippedVocabularies()) entries.set(type, new Map(list.map((e) => [e.id, e])));
for (const [type, list] of Object.entries(directories)) entries.set(type, new Map(list.map((e) => [e.id, e])));
const lookup: VocabularyLookup = (type, id) => entries.get(type)?.get(id) ?? null;

const check = (metadata: unknown, publisherRequired = false, custom_fields?: unknown) => checkMetadata({ metadata, custom_fields }, lookup, { publisherRequired });

const jane = { type: "personal", given_name: "Jane", family_name: "Doe" };
const minimal = {
  resource_type: { id: "dataset" },
  title: "A dataset",
  publication_date: "2024-05-01",
  creators: [{ person_or_org: jane }],
};

const CC_BY = {
  id: "cc-by-4.0",
  title: { en: "Creative Commons Attribution 4.0 International" },
  description: {
    en: "The Creative Commons Attribution license allows re-distribution and re-use of a licensed work on the condition that the creator is appropriately credited.",
  },
  icon: "cc-by-icon",
  props: { url: "https://creativecommons.org/licenses/by/4.0/legalcode", scheme: "spdx" },
};

const fullInput = {
  resource_type: { id: "publication-article" },
  title: "  Measurements of glaciers  ",
  additional_titles: [{ title: "A subtitle", type: { id: "subtitle" }, lang: { id: "eng" } }],
  publication_date: "2024-05",
  creators: [
    {
      person_or_org: { ...jane, name: "sent name is replaced", identifiers: [{ scheme: "ORCID", identifier: "https://orcid.org/0000-0002-1825-0097" }] },
      role: { id: "datacollector" },
      affiliations: [{ id: "01ggx4157", name: "Wrong name" }, { name: "Free University" }],
    },
    { person_or_org: { type: "organizational", name: "ACME Lab", given_name: "x", family_name: "y", identifiers: [{ identifier: "01ggx4157" }] } },
  ],
  contributors: [{ person_or_org: { type: "personal", family_name: "Roe" }, role: { id: "supervisor", title: { en: "stale" } } }],
  publisher: "Cairn",
  version: "v1.0",
  copyright: "© 2024 The authors",
  description: '<p class="lead" onclick="steal()">Data <script>alert(1)</script><b>collected</b> <a href="javascript:x()">here</a>.</p>',
  additional_descriptions: [{ description: "<h2>Methods</h2><img src=x>We measured.", type: { id: "methods" }, lang: { id: "eng" } }],
  subjects: [{ id: "https://id.nlm.nih.gov/mesh/D000001" }, { subject: "glaciers" }],
  languages: [{ id: "eng" }, { id: "dan" }],
  dates: [{ date: "2023-06-01/2023-08-31", type: { id: "collected" }, description: "Field season" }],
  rights: [{ id: "cc-by-4.0" }, { title: { en: "Custom terms" }, description: { en: "Ask us." }, link: "https://example.org/terms" }],
  identifiers: [{ scheme: "doi", identifier: "https://doi.org/10.5281/zenodo.123" }, { identifier: "arXiv:1501.00001" }],
  related_identifiers: [{ identifier: "doi:10.1234/PAPER.1", scheme: "DOI", relation_type: { id: "iscitedby" }, resource_type: { id: "publication-article" } }],
  sizes: ["2 files", "1 GB"],
  formats: ["text/csv"],
  references: [{ reference: "Doe J. (2020) Things.", identifier: "0000000121032683", scheme: "isni" }],
  funding: [
    { funder: { id: "00k4n6c32", name: "stale" }, award: { id: "00k4n6c32::101004490" } },
    { funder: { name: "Local Trust" }, award: { number: "LT-1", title: { en: "Small grant" } } },
  ],
  locations: {
    features: [{ geometry: { type: "Point", coordinates: [6.05, 46.23] }, place: "CERN", description: "Main site", identifiers: [{ scheme: "geonames", identifier: "2661604" }] }],
  },
};

const fullOutput = {
  resource_type: { id: "publication-article", title: { en: "Journal article" } },
  title: "Measurements of glaciers",
  additional_titles: [{ title: "A subtitle", type: { id: "subtitle", title: { en: "Subtitle" } }, lang: { id: "eng", title: { en: "English" } } }],
  publication_date: "2024-05",
  creators: [
    {
      person_or_org: { type: "personal", name: "Doe, Jane", given_name: "Jane", family_name: "Doe", identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }] },
      role: { id: "datacollector", title: { en: "Data collector" } },
      affiliations: [{ id: "01ggx4157", name: "CERN" }, { name: "Free University" }],
    },
    { person_or_org: { type: "organizational", name: "ACME Lab", identifiers: [{ scheme: "ror", identifier: "01ggx4157" }] } },
  ],
  contributors: [{ person_or_org: { type: "personal", name: "Roe", family_name: "Roe" }, role: { id: "supervisor", title: { en: "Supervisor" } } }],
  publisher: "Cairn",
  version: "v1.0",
  copyright: "© 2024 The authors",
  description: '<p class="lead">Data <b>collected</b> <a>here</a>.</p>',
  additional_descriptions: [{ description: "<h2>Methods</h2>We measured.", type: { id: "methods", title: { en: "Methods" } }, lang: { id: "eng", title: { en: "English" } } }],
  subjects: [{ id: "https://id.nlm.nih.gov/mesh/D000001", subject: "Calcimycin", scheme: "MeSH" }, { subject: "glaciers" }],
  languages: [
    { id: "eng", title: { en: "English" } },
    { id: "dan", title: { en: "Danish" } },
  ],
  dates: [{ date: "2023-06-01/2023-08-31", type: { id: "collected", title: { en: "Collected" } }, description: "Field season" }],
  rights: [CC_BY, { title: { en: "Custom terms" }, description: { en: "Ask us." }, link: "https://example.org/terms" }],
  identifiers: [
    { scheme: "doi", identifier: "10.5281/zenodo.123" },
    { scheme: "arxiv", identifier: "arXiv:1501.00001" },
  ],
  related_identifiers: [
    {
      scheme: "doi",
      identifier: "10.1234/PAPER.1",
      relation_type: { id: "iscitedby", title: { en: "Is cited by" } },
      resource_type: { id: "publication-article", title: { en: "Journal article" } },
    },
  ],
  sizes: ["2 files", "1 GB"],
  formats: ["text/csv"],
  references: [{ reference: "Doe J. (2020) Things.", scheme: "isni", identifier: "0000000121032683" }],
  funding: [
    {
      funder: { id: "00k4n6c32", name: "European Commission" },
      award: {
        id: "00k4n6c32::101004490",
        number: "101004490",
        title: { en: "Open science for glaciers" },
        identifiers: [{ scheme: "url", identifier: "https://cordis.europa.eu/projects/101004490" }],
        acronym: "GLACIO",
      },
    },
    { funder: { name: "Local Trust" }, award: { number: "LT-1", title: { en: "Small grant" } } },
  ],
  locations: {
    features: [{ geometry: { type: "Point", coordinates: [6.05, 46.23] }, place: "CERN", description: "Main site", identifiers: [{ scheme: "geonames", identifier: "2661604" }] }],
  },
};

describe("valid metadata", () => {
  test("every field: normalised output with vocabulary titles, computed names, affiliation rule, sanitised HTML", () => {
    const result = check(fullInput, true);
    expect(result.errors).toEqual([]);
    expect(result.unknownIds).toEqual([]);
    expect(result.metadata).toEqual(fullOutput);
  });

  test("a GET-modify-PUT round trip: dump-only keys sent back are ignored and recomputed", () => {
    const again = check(fullOutput, true);
    expect(again.errors).toEqual([]);
    expect(again.metadata).toEqual(fullOutput);
  });

  test("minimal metadata", () => {
    const result = check(minimal);
    expect(result.errors).toEqual([]);
    expect(result.metadata).toEqual({
      resource_type: { id: "dataset", title: { en: "Dataset" } },
      title: "A dataset",
      publication_date: "2024-05-01",
      creators: [{ person_or_org: { type: "personal", name: "Doe, Jane", given_name: "Jane", family_name: "Doe" } }],
    });
  });
});

const e = (field: string, message: string) => ({ field, messages: [message] });
const MISSING = "Missing data for required field.";

describe("errors: exact paths and messages", () => {
  const cases: [string, unknown, ReturnType<typeof e>[]][] = [
    ["nothing sent", undefined, [e("metadata.resource_type", MISSING), e("metadata.creators", MISSING), e("metadata.title", MISSING), e("metadata.publication_date", MISSING)]],
    ["metadata not an object", "x", [e("metadata", "Invalid input type.")]],
    ["short title", { ...minimal, title: "ab" }, [e("metadata.title", "Shorter than minimum length 3.")]],
    ["title of the wrong type", { ...minimal, title: 42 }, [e("metadata.title", "Not a valid string.")]],
    ["empty creators", { ...minimal, creators: [] }, [e("metadata.creators", MISSING)]],
    ["creators not a list", { ...minimal, creators: {} }, [e("metadata.creators", "Not a valid list.")]],
    [
      "person without family name",
      { ...minimal, creators: [{ person_or_org: { type: "personal", given_name: "Jane" } }] },
      [e("metadata.creators.0.person_or_org.family_name", "Family name cannot be blank.")],
    ],
    [
      "organisation without name",
      { ...minimal, creators: [{ person_or_org: { type: "organizational" } }] },
      [e("metadata.creators.0.person_or_org.name", "Name cannot be blank.")],
    ],
    [
      "person_or_org without type",
      { ...minimal, creators: [{ person_or_org: { family_name: "Doe" } }] },
      [e("metadata.creators.0.person_or_org.type", "Invalid value. Choose one of ['organizational', 'personal'].")],
    ],
    ["creator without person_or_org", { ...minimal, creators: [{}] }, [e("metadata.creators.0.person_or_org", MISSING)]],
    ["contributor without role", { ...minimal, contributors: [{ person_or_org: jane }] }, [e("metadata.contributors.0.role", MISSING)]],
    ["resource type without id", { ...minimal, resource_type: {} }, [e("metadata.resource_type.id", MISSING)]],
    ["not a calendar date", { ...minimal, publication_date: "2021-02-30" }, [e("metadata.publication_date", "Please provide a valid date or interval.")]],
    ["interval backwards", { ...minimal, publication_date: "2021/2020" }, [e("metadata.publication_date", "Please provide a valid date or interval.")]],
    ["unknown top-level field", { ...minimal, foo: 1 }, [e("metadata.foo", "Unknown field.")]],
    ["unknown nested field", { ...minimal, creators: [{ person_or_org: { ...jane, email: "x" } }] }, [e("metadata.creators.0.person_or_org.email", "Unknown field.")]],
    [
      "orcid with a bad checksum",
      { ...minimal, creators: [{ person_or_org: { ...jane, identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0098" }] } }] },
      [e("metadata.creators.0.person_or_org.identifiers.0.identifier", "Invalid value 0000-0002-1825-0098 for scheme orcid.")],
    ],
    [
      "two identifiers of one scheme",
      {
        ...minimal,
        identifiers: [
          { scheme: "doi", identifier: "10.1/a" },
          { scheme: "doi", identifier: "10.1/b" },
        ],
      },
      [e("metadata.identifiers", "Only one identifier per scheme is allowed.")],
    ],
    [
      "scheme not allowed",
      { ...minimal, identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }] },
      [e("metadata.identifiers.0.scheme", "Missing or invalid scheme for identifier 0000-0002-1825-0097.")],
    ],
    [
      "related identifier without relation type",
      { ...minimal, related_identifiers: [{ scheme: "doi", identifier: "10.1/a" }] },
      [e("metadata.related_identifiers.0.relation_type", MISSING)],
    ],
    ["description too short once sanitised", { ...minimal, description: "<script>alert(1)</script>ok" }, [e("metadata.description", "Shorter than minimum length 3.")]],
    ["additional title without type", { ...minimal, additional_titles: [{ title: "Other title" }] }, [e("metadata.additional_titles.0.type", MISSING)]],
    ["date without type", { ...minimal, dates: [{ date: "2020" }] }, [e("metadata.dates.0.type", MISSING)]],
    ["free rights with two locales", { ...minimal, rights: [{ title: { en: "A", de: "B" } }] }, [e("metadata.rights.0.title", "Only one value is accepted.")]],
    [
      "rights with neither id nor title",
      { ...minimal, rights: [{ link: "https://example.org" }] },
      [e("metadata.rights.0", "An existing id or a free text title must be present")],
    ],
    [
      "empty location feature",
      { ...minimal, locations: { features: [{}] } },
      [e("metadata.locations.features.0", "At least one of ['geometry', 'place', 'identifiers', 'description'] must be present.")],
    ],
    [
      "open polygon",
      {
        ...minimal,
        locations: {
          features: [
            {
              geometry: {
                type: "Polygon",
                coordinates: [
                  [
                    [0, 0],
                    [1, 0],
                    [1, 1],
                    [0, 1],
                  ],
                ],
              },
            },
          ],
        },
      },
      [e("metadata.locations.features.0.geometry.coordinates", "Each linear ring must end where it started.")],
    ],
    ["funding without funder", { ...minimal, funding: [{ award: { id: "00k4n6c32::101004490" } }] }, [e("metadata.funding.0.funder", MISSING)]],
    ["blank size", { ...minimal, sizes: [" "] }, [e("metadata.sizes.0", "Size cannot be a blank string.")]],
    [
      "duplicated affiliation",
      { ...minimal, creators: [{ person_or_org: jane, affiliations: [{ id: "01ggx4157" }, { id: "01ggx4157", name: "CERN" }] }] },
      [e("metadata.creators.0.affiliations", "Duplicated affiliations.")],
    ],
  ];
  for (const [name, metadata, expected] of cases) {
    test(name, () => {
      const result = check(metadata);
      expect(result.errors).toEqual(expected);
      expect(result.unknownIds).toEqual([]);
    });
  }

  test("lenient: recognisable values stay (with errors), wrong types are left out", () => {
    const result = check({ ...minimal, title: "ab", version: 3, publication_date: "someday", creators: [{ person_or_org: { type: "personal", given_name: "Jane" } }] });
    expect(result.metadata.title).toBe("ab");
    expect(result.metadata.publication_date).toBe("someday");
    expect(result.metadata.creators).toEqual([{ person_or_org: { type: "personal", name: "Jane", given_name: "Jane" } }]);
    expect("version" in result.metadata).toBe(false);
    expect(result.errors.map((error) => error.field)).toEqual(["metadata.creators.0.person_or_org.family_name", "metadata.title", "metadata.publication_date", "metadata.version"]);
  });

  test("publisher is required when a DOI will be registered", () => {
    expect(check(minimal, true).errors).toEqual([e("metadata.publisher", PUBLISHER_REQUIRED)]);
    expect(check({ ...minimal, publisher: "" }, true).errors).toEqual([e("metadata.publisher", PUBLISHER_REQUIRED)]);
    expect(check({ ...minimal, publisher: "Cairn" }, true).errors).toEqual([]);
    expect(check(minimal, false).errors).toEqual([]);
  });
});

describe("unknown vocabulary ids", () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ["resource type", { resource_type: { id: "nope" } }, "metadata.resource_type.id", "nope"],
    ["language", { languages: [{ id: "eng" }, { id: "xxq" }] }, "metadata.languages.1.id", "xxq"],
    ["creator role", { creators: [{ person_or_org: jane, role: { id: "chef" } }] }, "metadata.creators.0.role.id", "chef"],
    ["affiliation", { creators: [{ person_or_org: jane, affiliations: [{ id: "0000nope0", name: "X" }] }] }, "metadata.creators.0.affiliations.0.id", "0000nope0"],
    ["licence", { rights: [{ id: "cc-by-9.0" }] }, "metadata.rights.0.id", "cc-by-9.0"],
    ["subject", { subjects: [{ id: "mesh:nope" }] }, "metadata.subjects.0.id", "mesh:nope"],
    ["funder", { funding: [{ funder: { id: "nofunder" } }] }, "metadata.funding.0.funder.id", "nofunder"],
    ["award", { funding: [{ funder: { id: "00k4n6c32" }, award: { id: "00k4n6c32::0" } }] }, "metadata.funding.0.award.id", "00k4n6c32::0"],
    [
      "relation type",
      { related_identifiers: [{ scheme: "doi", identifier: "10.1/x", relation_type: { id: "likes" } }] },
      "metadata.related_identifiers.0.relation_type.id",
      "likes",
    ],
    ["title type", { additional_titles: [{ title: "Other", type: { id: "nickname" } }] }, "metadata.additional_titles.0.type.id", "nickname"],
  ];
  for (const [name, fields, field, id] of cases) {
    test(name, () => {
      const result = check({ ...minimal, ...fields });
      expect(result.unknownIds).toEqual([e(field, `Invalid value ${id}.`)]);
      expect(result.errors).toEqual([]);
    });
  }
});

describe("EDTF level 0", () => {
  const cases: [string, boolean][] = [
    ["2020", true],
    ["2020-11", true],
    ["2020-11-10", true],
    ["2020-02-29", true],
    ["0000", true],
    ["1939/1945", true],
    ["1939-09-01/1945-09", true],
    ["2020/2020-03", true],
    ["2020-05/2020", true],
    ["2020/2020", true],
    ["2021-02-29", false],
    ["2021-02-30", false],
    ["2020-13", false],
    ["2020-00", false],
    ["2020-04-31", false],
    ["2021/2020", false],
    ["2020-06/2020-03", false],
    ["2020/", false],
    ["/2020", false],
    ["..2020", false],
    ["2020-1-01", false],
    ["20201", false],
    ["2020?", false],
    ["2020-01-01T10:00:00", false],
    ["1939/1940/1941", false],
    ["", false],
  ];
  for (const [value, valid] of cases) test(`${value || "(empty)"} is ${valid ? "valid" : "invalid"}`, () => expect(parseEdtf(value) !== null).toBe(valid));
});

describe("identifier schemes", () => {
  const cases: [string, string, boolean][] = [
    ["orcid", "0000-0002-1825-0097", true],
    ["orcid", "https://orcid.org/0000-0002-1694-233X", true],
    ["orcid", "0000-0002-1825-0098", false],
    ["orcid", "0000-0000-0000-0000", false],
    ["isni", "0000000121032683", true],
    ["isni", "0000000121032684", false],
    ["ror", "01ggx4157", true],
    ["ror", "https://ror.org/01ggx4157", true],
    ["ror", "01ggx4158", false],
    ["gnd", "gnd:4079154-3", true],
    ["isbn", "978-3-16-148410-0", true],
    ["isbn", "0-306-40615-2", true],
    ["isbn", "978-3-16-148410-1", false],
    ["issn", "0378-5955", true],
    ["issn", "0378-5954", false],
    ["eissn", "2049-3630", true],
    ["ean13", "4006381333931", true],
    ["doi", "10.1234/abc", true],
    ["doi", "https://doi.org/10.1234/abc", true],
    ["doi", "11.1234/abc", false],
    ["arxiv", "arXiv:1501.00001", true],
    ["arxiv", "math.GT/0309136", true],
    ["ads", "2011ApJS..192...18K", true],
    ["ark", "ark:/13030/tf5p30086k", true],
    ["handle", "hdl:1234/5678", true],
    ["urn", "urn:nbn:de:101:1-201102033592", true],
    ["lsid", "urn:lsid:ubio.org:namebank:11815", true],
    ["pmid", "12345", true],
    ["purl", "https://purl.org/net/x", true],
    ["url", "https://example.org/x", true],
    ["url", "example.org", false],
    ["other", "anything", true],
    ["w3id", "x", true],
  ];
  for (const [scheme, value, valid] of cases) test(`${scheme} ${value} is ${valid ? "valid" : "invalid"}`, () => expect(isValidIdentifier(scheme, value)).toBe(valid));

  const normalised: [string, string, string][] = [
    ["orcid", "https://orcid.org/0000-0002-1694-233x", "0000-0002-1694-233X"],
    ["orcid", "0000000218250097", "0000-0002-1825-0097"],
    ["doi", "https://doi.org/10.1234/ABC", "10.1234/ABC"],
    ["ror", "https://ror.org/01ggx4157", "01ggx4157"],
    ["gnd", "https://d-nb.info/gnd/4079154-3", "gnd:4079154-3"],
    ["issn", "03785955", "0378-5955"],
    ["arxiv", "math.GT/0309136", "arXiv:math/0309136"],
    ["pmid", "https://pubmed.ncbi.nlm.nih.gov/12345/", "12345"],
  ];
  for (const [scheme, value, expected] of normalised) test(`${scheme} ${value} normalises to ${expected}`, () => expect(normalizeIdentifier(scheme, value)).toBe(expected));

  test("schemes are detected when none is sent", () => {
    expect(detectSchemes("10.1234/x")[0]).toBe("doi");
    expect(detectSchemes("https://doi.org/10.1234/x")[0]).toBe("doi");
    expect(detectSchemes("0000-0002-1825-0097")[0]).toBe("orcid");
    expect(detectSchemes("https://example.org")).toEqual(["url"]);
  });
});

describe("custom fields", () => {
  const cases: [string, unknown, Record<string, unknown>, ReturnType<typeof e>[]][] = [
    [
      "journal",
      { "journal:journal": { title: " Nature ", volume: "5", issue: "2", pages: "1-10", issn: "0028-0836" } },
      { "journal:journal": { title: "Nature", volume: "5", issue: "2", pages: "1-10", issn: "0028-0836" } },
      [],
    ],
    [
      "imprint",
      { "imprint:imprint": { title: "Proceedings", isbn: "978-3-16-148410-0", pages: "12", place: "Geneva", edition: "2" } },
      { "imprint:imprint": { title: "Proceedings", isbn: "978-3-16-148410-0", pages: "12", place: "Geneva", edition: "2" } },
      [],
    ],
    [
      "meeting",
      { "meeting:meeting": { title: "Glacier Days", acronym: "GD", dates: "1-2 May 2024", place: "Bern", session: "A", session_part: "1", url: "https://example.org/gd" } },
      { "meeting:meeting": { title: "Glacier Days", acronym: "GD", dates: "1-2 May 2024", place: "Bern", session: "A", session_part: "1", url: "https://example.org/gd" } },
      [],
    ],
    ["thesis university", { "thesis:university": "University of Bern" }, { "thesis:university": "University of Bern" }, []],
    ["unknown key", { "cern:experiment": "ATLAS" }, {}, [e("custom_fields.cern:experiment", "Unknown field.")]],
    [
      "unknown sub-field",
      { "journal:journal": { title: "Nature", doi: "x" } },
      { "journal:journal": { title: "Nature" } },
      [e("custom_fields.journal:journal.doi", "Unknown field.")],
    ],
    ["wrong shape", { "journal:journal": "Nature" }, {}, [e("custom_fields.journal:journal", "Invalid input type.")]],
    ["wrong sub-field type", { "journal:journal": { volume: 5 } }, { "journal:journal": {} }, [e("custom_fields.journal:journal.volume", "Not a valid string.")]],
    ["university not a string", { "thesis:university": ["Bern"] }, {}, [e("custom_fields.thesis:university", "Not a valid string.")]],
    ["bad meeting url", { "meeting:meeting": { url: "not a url" } }, { "meeting:meeting": { url: "not a url" } }, [e("custom_fields.meeting:meeting.url", "Not a valid URL.")]],
    ["not an object", ["x"], {}, [e("custom_fields", "Invalid input type.")]],
  ];
  for (const [name, customFields, expected, errors] of cases) {
    test(name, () => {
      const result = check(minimal, false, customFields);
      expect(result.customFields).toEqual(expected);
      expect(result.errors).toEqual(errors);
    });
  }
});
