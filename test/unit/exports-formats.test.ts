// The JSON-family exports, BibTeX and the formatted citation rendered from hand-built records:
// each validated against its schema (DataCite JSON 4.5, CSL-data, GeoJSON with ajv; BibTeX with a
// real parser), then checked value by value.
import { describe, expect, test } from "bun:test";
import { bibtexEntry, bibtexFormat, citationKey, escapeLatex } from "../../src/exports/bibtex";
import CSL from "citeproc";
import { CITATION_STYLES, citationFormat, citedItem, formatCitation, singleEntryStyle } from "../../src/exports/citation";
import { CSL_LOCALES, CSL_STYLES } from "../../src/exports/csl-files";
import { cslItem, cslJsonFormat } from "../../src/exports/csl";
import { dataciteJsonFormat } from "../../src/exports/datacite-json";
import { geojsonFormat } from "../../src/exports/geojson";
import { jsonFormat } from "../../src/exports/json";
import { jsonLdFormat } from "../../src/exports/json-ld";
import type { RecordDocument as ExportRecord } from "../../src/core/record-document";
import { minimalRecord, sampleRecord, testContext } from "../helpers/export-samples";
import { cslItemErrors, dataciteJsonErrors, geojsonErrors, parseBibtexStrict } from "../helpers/json-validate";

const ctx = testContext();
const minimal = minimalRecord();
const rich = sampleRecord({ creators: 3, files: 2 });
const json = (text: string) => JSON.parse(text);
const withMetadata = (record: ExportRecord, metadata: Record<string, unknown>, custom: Record<string, unknown> = {}): ExportRecord => ({
  ...record,
  metadata: { ...record.metadata, ...metadata },
  custom_fields: custom,
});

describe("DataCite JSON (kernel 4.5 JSON schema)", () => {
  test("minimal and rich records are valid", () => {
    for (const record of [minimal, rich, sampleRecord({ creators: 50, files: 100 })]) {
      expect(dataciteJsonErrors(json(dataciteJsonFormat.render(record, ctx)))).toEqual([]);
    }
  });

  test("values: DOI, creators, titles, dates, subjects, geo, funding", () => {
    const d = json(dataciteJsonFormat.render(rich, ctx));
    expect(d.doi).toBe("10.1234/abcde-12345");
    expect(d.url).toBe("http://127.0.0.1:5000/records/abcde-12345");
    expect(d.types).toEqual({ resourceTypeGeneral: "Dataset", resourceType: "" });
    expect(d.creators.map((c: any) => c.name)).toEqual(["Family0, Given0", "Family1, Given1", "Family2, Given2"]);
    expect(d.creators[0].nameIdentifiers).toEqual([{ nameIdentifier: "0000-0002-1825-0097", nameIdentifierScheme: "ORCID" }]);
    expect(d.titles[0]).toEqual({ title: rich.metadata.title });
    expect(d.publicationYear).toBe("2024");
    expect(d.dates).toEqual([
      { date: "2024-05-17", dateType: "Issued" },
      { date: "2023-06-01/2023-08-31", dateType: "Collected", dateInformation: "Field season" },
      { date: "2026-11-22", dateType: "Updated" },
    ]);
    expect(d.subjects[0]).toEqual({ subject: "Calcimycin", subjectScheme: "MeSH", valueUri: "https://id.nlm.nih.gov/mesh/D000001" });
    expect(d.geoLocations[0]).toEqual({ geoLocationPlace: "CERN", geoLocationPoint: { pointLongitude: 6.05, pointLatitude: 46.23 } });
    expect(d.geoLocations[1].geoLocationBox).toEqual({ westBoundLongitude: 7.9, eastBoundLongitude: 8.1, southBoundLatitude: 46.4, northBoundLatitude: 46.6 });
    expect(d.fundingReferences[0]).toMatchObject({
      funderName: "European Commission",
      funderIdentifierType: "ROR",
      awardNumber: "101004490",
      awardUri: "https://cordis.europa.eu/projects/101004490",
    });
    expect(d.relatedIdentifiers.at(-1)).toEqual({ relatedIdentifier: "10.1234/zzzzz-00000", relatedIdentifierType: "DOI", relationType: "IsVersionOf" });
  });

  test("a record without a DOI has no `doi`; the publisher falls back to the site name", () => {
    const d = json(dataciteJsonFormat.render(minimal, ctx));
    expect("doi" in d).toBe(false);
    expect(d.publisher).toEqual({ name: "Cairn" });
  });
});

describe("CSL JSON (csl-data.json)", () => {
  test("minimal and rich records are valid items", () => {
    for (const record of [minimal, rich]) expect(cslItemErrors(json(cslJsonFormat.render(record, ctx)))).toEqual([]);
  });

  test("values after InvenioRDM's csl schema", () => {
    const item = json(cslJsonFormat.render(rich, ctx));
    expect(item).toMatchObject({
      id: "abcde-12345",
      type: "dataset",
      title: rich.metadata.title,
      abstract: "Data collected on glaciers & ice caps, 2023 season.",
      issued: { "date-parts": [[2024, 5, 17]] },
      language: "eng",
      version: "v1.0",
      note: "Funding by European Commission ROR 00k4n6c32.",
      DOI: "10.1234/abcde-12345",
      ISBN: "978-3-16-148410-0",
      publisher: "Cairn test repository",
      "container-title": "Journal of Glaciology",
      volume: "70",
      issue: "3",
      page: "101-120",
    });
    expect(item.author).toEqual([
      { family: "Family0", given: "Given0" },
      { family: "Family1", given: "Given1" },
      { family: "Family2", given: "Given2" },
    ]);
    expect(item.URL).toBeUndefined();
  });

  test("intervals give two date parts; organisations are a family name; no DOI gives the landing page; unknown csl types fall back", () => {
    const record = withMetadata(minimal, {
      publication_date: "2020-11/2021",
      resource_type: { id: "publication-journal" }, // its csl prop "journal" is not a CSL type
      creators: [{ person_or_org: { type: "organizational", name: "ACME Lab" } }],
    });
    const item = json(cslJsonFormat.render(record, ctx));
    expect(item.issued).toEqual({ "date-parts": [[2020, 11], [2021]] });
    expect(item.author).toEqual([{ family: "ACME Lab" }]);
    expect(item.URL).toBe("http://127.0.0.1:5000/records/mnmal-00001");
    expect(item.type).toBe("article");
    expect(cslItemErrors(item)).toEqual([]);
  });
});

describe("GeoJSON (FeatureCollection.json)", () => {
  test("valid for minimal and rich records, with every location as a feature", () => {
    expect(json(geojsonFormat.render(minimal, ctx))).toEqual({ type: "FeatureCollection", features: [] });
    const doc = json(geojsonFormat.render(rich, ctx));
    for (const d of [doc, json(geojsonFormat.render(minimal, ctx))]) expect(geojsonErrors(d)).toEqual([]);
    expect(doc.features).toEqual([
      {
        type: "Feature",
        geometry: { type: "Point", coordinates: [6.05, 46.23] },
        properties: { place: "CERN", description: "Main site", identifiers: [{ scheme: "geonames", identifier: "2661604" }] },
      },
      { type: "Feature", geometry: rich.metadata.locations.features[1].geometry, properties: { place: "Aletsch glacier" } },
      { type: "Feature", geometry: null, properties: { place: "Somewhere in the Alps" } },
    ]);
    expect(geojsonFormat.mediaTypes).toEqual(["application/vnd.geojson+json", "application/vnd.geo+json"]);
  });
});

describe("BibTeX", () => {
  test("minimal and rich records parse without errors, with their values", () => {
    const [entry] = parseBibtexStrict(bibtexFormat.render(minimal, ctx));
    expect(entry!.type).toBe("dataset");
    expect(entry!.key).toBe("lovelace_2026_mnmal-00001");
    expect(entry!.fields.title).toBe("Sea surface temperature 2020-2024");
    expect(entry!.fields.author).toEqual([{ lastName: "Lovelace", firstName: "Ada" }]);
    expect(entry!.fields.year).toBe("2026");
    expect(entry!.fields.url).toBe("http://127.0.0.1:5000/records/mnmal-00001");

    const [full] = parseBibtexStrict(bibtexFormat.render(rich, ctx));
    expect(full!.key).toBe("family0_2024_abcde-12345");
    expect(full!.fields.title).toBe("Measurements of glaciers & ice_caps: 100% #1 {draft}"); // escaped and wrapped, read back whole
    expect(full!.fields.author).toHaveLength(3);
    expect(full!.fields.month).toBe("5");
    expect(full!.fields.doi).toBe("10.1234/abcde-12345");
    expect(full!.fields.url).toBe("https://handle.stage.datacite.org/10.1234/abcde-12345");
    expect(full!.fields.note).toBe("Presented at the glacier workshop.");
  });

  test("the entry text: macros unbraced, LaTeX specials escaped, long values wrapped at 50", () => {
    const text = bibtexFormat.render(rich, ctx);
    expect(text).toStartWith("@dataset{family0_2024_abcde-12345,\n  author       = {Family0, Given0 and Family1, Given1 and Family2, Given2},\n");
    expect(text).toContain("  month        = may,\n  year         = 2024,\n");
    expect(text).toContain("title        = {Measurements of glaciers \\& ice\\_caps: 100\\% \\#1\n                 \\{draft\\}},");
    expect(escapeLatex("a\\b~c^d$")).toBe("a\\textbackslash{}b\\textasciitilde{}c\\textasciicircum{}d\\$");
  });

  const custom = (journal = true) => ({
    ...(journal ? { "journal:journal": { title: "Nature", volume: "5", issue: "2", pages: "1-10" } } : {}),
    "imprint:imprint": { title: "Proceedings of Ice", pages: "3-4", place: "Geneva" },
    "meeting:meeting": { title: "Ice meeting", place: "Zermatt" },
    "thesis:university": "University of Bern",
  });
  const typeOf = (resourceType: string, metadata: Record<string, unknown> = {}, customFields: Record<string, unknown> = custom()) => {
    const text = bibtexEntry(withMetadata(rich, { resource_type: { id: resourceType }, ...metadata }, customFields), ctx);
    const [entry] = parseBibtexStrict(text);
    return [entry!.type, entry!.fields] as const;
  };

  test.each([
    ["publication-article", "article"],
    ["publication-conferencepaper", "inproceedings"],
    ["publication-conferenceproceeding", "proceedings"],
    ["publication-book", "book"],
    ["publication-thesis", "phdthesis"],
    ["publication-technicalnote", "manual"],
    ["publication-preprint", "unpublished"],
    ["publication-workingpaper", "unpublished"],
    ["software", "software"],
    ["dataset", "dataset"],
    ["image-photo", "misc"],
  ])("%s -> @%s", (resourceType, expected) => {
    expect(typeOf(resourceType)[0]).toBe(expected);
  });

  test("the fields each type takes, and the fallbacks when required fields are missing", () => {
    const [, article] = typeOf("publication-article");
    expect([article.journal, article.volume, article.number, article.pages]).toEqual(["Nature", "5", "2", "1-10"]);
    const [, paper] = typeOf("publication-conferencepaper");
    expect([paper.booktitle, paper.pages, paper.venue]).toEqual(["Proceedings of Ice", "3-4", "Zermatt"]);
    expect(typeOf("publication-thesis")[1].school).toBe("University of Bern");
    expect(typeOf("publication-article", {}, custom(false))[0]).toBe("misc"); // no journal
    expect(typeOf("publication-book", { publisher: undefined })[0]).toBe("booklet");
    expect(typeOf("publication-preprint", { additional_descriptions: [] })[0]).toBe("misc"); // no note
    expect(typeOf("publication-thesis", {}, {})[0]).toBe("misc"); // no university
  });

  test("citation keys: slugged family name (max 40), year, id; organisations by name; no creator or date", () => {
    const key = (metadata: Record<string, unknown>) => citationKey(withMetadata(minimal, metadata));
    expect(key({ creators: [{ person_or_org: { type: "personal", family_name: "Müller-Lüdenscheidt", given_name: "Ö" } }] })).toBe("muller_ludenscheidt_2026_mnmal-00001");
    expect(key({ creators: [{ person_or_org: { type: "organizational", name: "ACME Lab (Geneva)" } }] })).toBe("acme_lab_geneva_2026_mnmal-00001");
    expect(key({ creators: [{ person_or_org: { type: "personal", family_name: "A".repeat(60) } }] })).toBe(`${"a".repeat(40)}_2026_mnmal-00001`);
    expect(key({ creators: [], publication_date: undefined })).toBe("mnmal-00001");
  });
});

describe("Schema.org JSON-LD", () => {
  test("a Dataset with creators, identifiers, licence, funding, places and a download per file", () => {
    const doc = json(jsonLdFormat.render(rich, ctx));
    expect(doc).toMatchObject({
      "@context": "http://schema.org",
      "@type": "Dataset",
      "@id": "https://handle.stage.datacite.org/10.1234/abcde-12345",
      name: rich.metadata.title,
      description: "Data collected on glaciers & ice caps, 2023 season.",
      datePublished: "2024-05-17",
      version: "v1.0",
      license: ["https://creativecommons.org/licenses/by/4.0/legalcode"],
      keywords: ["Calcimycin", "glaciers"],
      publisher: { "@type": "Organization", name: "Cairn test repository" },
      inLanguage: [{ "@type": "Language", alternateName: "eng", name: "English" }],
      url: "http://127.0.0.1:5000/records/abcde-12345",
      measurementTechnique: "MethodsWe measured with GPS.",
    });
    expect(doc.creator[0]).toEqual({
      "@type": "Person",
      "@id": "https://orcid.org/0000-0002-1825-0097",
      name: "Family0, Given0",
      givenName: "Given0",
      familyName: "Family0",
      affiliation: [{ "@type": "Organization", name: "CERN" }],
    });
    expect(doc.funding[0]).toEqual({
      "@type": "MonetaryGrant",
      identifier: "101004490",
      name: "Open science for glaciers",
      funder: { "@type": "Organization", "@id": "https://ror.org/00k4n6c32", name: "European Commission" },
    });
    expect(doc.spatialCoverage[0]).toEqual({ "@type": "Place", name: "CERN", description: "Main site", geo: { "@type": "GeoCoordinates", longitude: 6.05, latitude: 46.23 } });
    expect(doc.distribution).toEqual([
      {
        "@type": "DataDownload",
        name: "data/part-0.csv",
        contentUrl: "http://127.0.0.1:5000/api/records/abcde-12345/files/data/part-0.csv/content",
        encodingFormat: "text/csv",
        contentSize: "1000",
      },
      {
        "@type": "DataDownload",
        name: "data/part-1.csv",
        contentUrl: "http://127.0.0.1:5000/api/records/abcde-12345/files/data/part-1.csv/content",
        encodingFormat: "text/csv",
        contentSize: "1001",
      },
    ]);
    expect(doc.sameAs).toEqual(["https://doi.org/10.5281/zenodo.123", "https://arxiv.org/abs/1501.00001"]);
  });

  test("a minimal record has no empty members", () => {
    const doc = json(jsonLdFormat.render(minimal, ctx));
    expect(Object.keys(doc).sort()).toEqual(["@context", "@id", "@type", "author", "creator", "dateModified", "datePublished", "identifier", "name", "publisher", "url"]);
    expect(doc.publisher).toEqual({ "@type": "Organization", name: "Cairn" });
  });
});

describe("JSON", () => {
  test("the record itself", () => {
    expect(json(jsonFormat.render(rich, ctx))).toEqual(rich);
  });
});

describe("formatted citations (citeproc-js)", () => {
  const cite = (params: Record<string, string>, record = rich) => citationFormat.render(record, testContext(params));

  test.each([
    ["apa", "Family0, G., Family1, G., &#38; Family2, G. (2024)."],
    ["harvard-cite-them-right", "Family0, G., Family1, G. and Family2, G. (2024)"],
    ["modern-language-association", "Family0, Given0, et al."],
    ["vancouver", "1. Family0 G, Family1 G, Family2 G."],
    ["chicago-fullnote-bibliography", "Family0, Given0, Given1 Family1, and Given2 Family2."],
    ["ieee", "[1] G. Family0, G. Family1, and G. Family2,"],
  ])("%s", (style, start) => {
    const text = cite({ style });
    expect(text.startsWith(start)).toBe(true);
    expect(text.toLowerCase()).toContain("measurements of glaciers");
    expect(text).not.toContain("<div");
  });

  test("apa is the default; the DOI is cited; a minimal record renders too", () => {
    expect(cite({})).toBe(cite({ style: "apa" }));
    expect(cite({})).toContain("https://doi.org/10.1234/abcde-12345");
    expect(cite({}, minimalRecord())).toBe("Lovelace, A. (2026). <i>Sea surface temperature 2020-2024</i> [Data set]. http://127.0.0.1:5000/records/mnmal-00001");
  });

  test("locales: a tag, a bare language, another case; unknown style or locale is a 400 naming the choices", () => {
    const mla = { style: "modern-language-association" };
    expect(cite(mla)).toContain("17 May 2024");
    const german = cite({ ...mla, locale: "de-DE" });
    expect(german).toContain("17. Mai 2024");
    expect(cite({ ...mla, locale: "de" })).toBe(german);
    expect(cite({ ...mla, locale: "de_de" })).toBe(german);
    // Harvard's own default locale is en-GB; an explicit locale overrides it.
    expect(cite({ style: "harvard-cite-them-right" }, minimalRecord())).toContain("Available at:");
    expect(cite({ style: "harvard-cite-them-right", locale: "fr-FR" }, minimalRecord())).not.toContain("Available at:");
    expect(() => cite({ style: "nope" })).toThrow(
      "Citation style 'nope' is not available. Available styles: apa, harvard-cite-them-right, modern-language-association, vancouver, chicago-fullnote-bibliography, ieee.",
    );
    expect(() => cite({ locale: "xx-YY" })).toThrow("Citation locale 'xx-YY' is not available.");
    for (const style of ["constructor", "__proto__", "toString"]) expect(() => cite({ style })).toThrow(`Citation style '${style}' is not available.`);
  });
});

describe("formatted citations of many authors", () => {
  test("passing the first 20 authors and the last (and no abstract) gives each style exactly the full item's output", () => {
    const record = sampleRecord({ creators: 50, files: 0 });
    const full = cslItem(record, ctx);
    expect(citedItem(full).author).toHaveLength(21);
    expect(citedItem(full).author.at(-1)).toEqual({ family: "Family49", given: "Given49" });
    expect(citedItem(full).abstract).toBeUndefined();
    for (const style of CITATION_STYLES) {
      const locale = { tag: "en-US", explicit: false };
      expect(citationFormat.render(record, testContext({ style }))).toBe(formatCitation(full, style, locale));
    }
    expect(citationFormat.render(record, testContext())).toContain("Family18, G., … Family49, G. (2024)");
  });
});

describe("citeproc engines are reused safely", () => {
  const locale = { tag: "en-US", explicit: false };
  test("an edited record is cited as it is now (same id, new metadata)", () => {
    const a = formatCitation({ id: "same-id", type: "dataset", title: "Title A", author: [{ family: "Doe" }] }, "apa", locale);
    const b = formatCitation({ id: "same-id", type: "dataset", title: "Title B", author: [{ family: "Roe" }] }, "apa", locale);
    expect(a).toBe("Doe. (n.d.). <i>Title A</i> [Data set].");
    expect(b).toBe("Roe. (n.d.). <i>Title B</i> [Data set].");
  });

  test("without sorting and disambiguation, each style renders a lone entry exactly as the original style does", () => {
    const items = [citedItem(cslItem(sampleRecord({ creators: 50, files: 0 }), ctx)), citedItem(cslItem(minimalRecord(), ctx)), citedItem(cslItem(rich, ctx))];
    for (const style of CITATION_STYLES) {
      expect(singleEntryStyle(CSL_STYLES[style]!)).not.toContain("<sort>");
      for (const item of items) {
        const original = new CSL.Engine({ retrieveLocale: (l: string) => CSL_LOCALES[l], retrieveItem: () => item }, CSL_STYLES[style]!, "en-US", false);
        original.updateItems([String(item.id)]);
        const expected = (original.makeBibliography() as [unknown, string[]])[1]
          .join("")
          .replace(/<\/?div[^>]*>/g, " ")
          .replace(/\s+/g, " ")
          .trim();
        expect(formatCitation(item, style, locale)).toBe(expected);
      }
    }
  });
});
