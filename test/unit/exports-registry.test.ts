// The export registry: InvenioRDM's format names in order, lookup by id and media type, Accept
// negotiation (quality values, parameters, the style preference, 406), and Signposting links.
import { describe, expect, test } from "bun:test";
import { HttpError } from "../../src/core/errors";
import { EXPORT_FORMATS, formatById, formatByMediaType, negotiateFormat, RECORD_MEDIA_TYPES } from "../../src/exports/registry";
import { createExportsService } from "../../src/exports/service";
import { signpostingLinks } from "../../src/exports/signposting";
import { minimalRecord, sampleRecord, testContext } from "../helpers/export-samples";

describe("registry", () => {
  test("every format once, in InvenioRDM's order, with its media types and file extension", () => {
    expect(EXPORT_FORMATS.map((f) => [f.id, f.mediaTypes, f.extension])).toEqual([
      ["json", ["application/json"], "json"],
      ["json-ld", ["application/ld+json"], "json"],
      ["csl", ["application/vnd.citationstyles.csl+json"], "json"],
      ["datacite-json", ["application/vnd.datacite.datacite+json"], "json"],
      ["datacite-xml", ["application/vnd.datacite.datacite+xml"], "xml"],
      ["dublincore", ["application/x-dc+xml"], "xml"],
      ["marcxml", ["application/marcxml+xml"], "xml"],
      ["bibtex", ["application/x-bibtex"], "bib"],
      ["geojson", ["application/vnd.geojson+json", "application/vnd.geo+json"], "geojson"],
      ["dcat-ap", ["application/dcat+xml"], "rdf"],
      ["codemeta", ["application/vnd.codemeta.ld+json"], "json"],
      ["cff", ["application/x-yaml", "application/vnd.cff+yaml"], "yaml"],
      ["datapackage", ["application/vnd.datapackage+json"], "json"],
      ["citation", ["text/x-bibliography"], "txt"],
    ]);
  });

  test("no media type or name serves two formats (each format answers its own types and names)", () => {
    const types = EXPORT_FORMATS.flatMap((f) => f.mediaTypes);
    expect(new Set(types).size).toBe(types.length);
    for (const f of EXPORT_FORMATS) for (const type of f.mediaTypes) expect(formatByMediaType(type)?.id).toBe(f.id);
    const names = EXPORT_FORMATS.flatMap((f) => [f.id, ...(f.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
  });

  test("lookup by id and by media type (case and parameters ignored; the API's JSON types are the record JSON)", () => {
    expect(formatById("bibtex")?.id).toBe("bibtex");
    expect(formatById("nope")).toBeUndefined();
    expect(formatByMediaType("Application/X-BibTeX; charset=UTF-8")?.id).toBe("bibtex");
    expect(formatByMediaType("application/vnd.geo+json")?.id).toBe("geojson");
    expect(formatByMediaType("application/vnd.inveniordm.v1+json")?.id).toBe("json");
    expect(formatByMediaType('application/ld+json; profile="https://w3id.org/codemeta/3.0"')?.id).toBe("json-ld");
    expect(formatByMediaType("application/vnd.cff+yaml")?.id).toBe("cff");
    expect(formatByMediaType("text/html")).toBeUndefined();
    expect(RECORD_MEDIA_TYPES[0]).toBe("application/json");
  });
});

describe("negotiation", () => {
  const chosen = (accept: string | null, preferCitation = false) => {
    const { format, mediaType } = negotiateFormat(accept, { preferCitation });
    return `${format.id} ${mediaType}`;
  };

  test.each([
    [null, "json application/json"],
    ["", "json application/json"],
    ["*/*", "json application/json"],
    ["application/x-bibtex", "bibtex application/x-bibtex"],
    ["application/x-bibtex;charset=UTF-8", "bibtex application/x-bibtex"],
    ["application/marcxml+xml; charset=utf-8; q=0.9", "marcxml application/marcxml+xml"],
    ["application/x-bibtex;q=0.5, application/vnd.citationstyles.csl+json;q=0.9", "csl application/vnd.citationstyles.csl+json"],
    ["application/vnd.citationstyles.csl+json;q=0, application/x-bibtex;q=0.1", "bibtex application/x-bibtex"],
    ["text/html, application/vnd.geo+json;q=0.8", "geojson application/vnd.geo+json"],
    ["application/vnd.geojson+json", "geojson application/vnd.geojson+json"],
    ["application/vnd.inveniordm.v1+json", "json application/vnd.inveniordm.v1+json"],
    ["text/*", "citation text/x-bibliography"],
    ["application/*;q=0.2, text/x-bibliography", "citation text/x-bibliography"],
  ])("Accept %p -> %s", (accept, expected) => {
    expect(chosen(accept)).toBe(expected);
  });

  test("a style parameter puts the citation first, unless the client excludes it", () => {
    expect(chosen(null, true)).toBe("citation text/x-bibliography");
    expect(chosen("*/*", true)).toBe("citation text/x-bibliography");
    expect(chosen("application/json", true)).toBe("json application/json");
  });

  test("nothing acceptable: 406 naming every supported type", () => {
    let error: unknown;
    try {
      negotiateFormat("text/html, image/png;q=0.5");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HttpError);
    const body = (error as HttpError).toJSON();
    expect(body.status).toBe(406);
    for (const type of RECORD_MEDIA_TYPES) expect(body.message).toContain(type);
    expect(() => negotiateFormat("application/x-bibtex;q=0")).toThrow("Supported:");
  });
});

describe("Signposting", () => {
  test("cite-as DOI, describedby per format, types, authors, licence and one item per file", () => {
    const record = sampleRecord({ creators: 6, files: 2 });
    const header = signpostingLinks(
      record,
      testContext(),
      EXPORT_FORMATS.filter((f) => f.id !== "citation"),
    );
    const links = header.split(", ");
    const api = "http://127.0.0.1:5000/api/records/abcde-12345";
    expect(links[0]).toBe('<https://handle.stage.datacite.org/10.1234/abcde-12345>; rel="cite-as"');
    expect(links.filter((l) => l.includes('rel="describedby"'))).toEqual(
      EXPORT_FORMATS.filter((f) => f.id !== "citation").map((f) => `<${api}>; rel="describedby"; type="${f.mediaTypes[0]}"`),
    );
    expect(links).toContain('<https://schema.org/Dataset>; rel="type"');
    expect(links).toContain('<https://schema.org/AboutPage>; rel="type"');
    // Creators 0 and 5 have an ORCID.
    expect(links.filter((l) => l.includes('rel="author"'))).toEqual([
      '<https://orcid.org/0000-0002-1825-0097>; rel="author"',
      '<https://orcid.org/0000-0002-1825-0097>; rel="author"',
    ]);
    expect(links).toContain('<https://creativecommons.org/licenses/by/4.0/legalcode>; rel="license"');
    expect(links.filter((l) => l.includes('rel="item"'))).toEqual([
      `<${api}/files/data/part-0.csv/content>; rel="item"; type="text/csv"`,
      `<${api}/files/data/part-1.csv/content>; rel="item"; type="text/csv"`,
    ]);
  });

  test("without a DOI the landing page is cited; no files, no items", () => {
    const header = signpostingLinks(minimalRecord(), testContext(), []);
    expect(header).toBe('<http://127.0.0.1:5000/records/mnmal-00001>; rel="cite-as", <https://schema.org/Dataset>; rel="type", <https://schema.org/AboutPage>; rel="type"');
  });
});

describe("the exports service's vocabulary reads", () => {
  /** The service over the test vocabularies, counting the entries it reads. */
  function countingService() {
    const { links, siteName, lookup, doiUrl } = testContext();
    const reads: string[] = [];
    const service = createExportsService({
      readRecord: () => Promise.reject(new Error("not used")),
      links,
      siteName,
      doiUrl,
      lookup: async (type, id) => {
        reads.push(`${type}:${id}`);
        return lookup(type, id);
      },
    });
    return { service, reads };
  }

  test("the renderings of one record JSON read its entries once; another record object reads them again", async () => {
    const { service, reads } = countingService();
    const record = sampleRecord();
    const citation = await service.chooseFormat("text/x-bibliography", {})!.render(record);
    const once = [...reads];
    expect(once).toContain("resourcetypes:dataset");
    const jsonLd = JSON.parse(await service.chooseFormat("application/ld+json", {})!.render(record));
    await service.render("bibtex", record);
    expect(reads).toEqual(once);
    // What was read is what renders: the resource type's schema.org type and the citation's text.
    expect(jsonLd["@type"]).toBe("Dataset");
    expect(citation.length).toBeGreaterThan(0);
    await service.render("json-ld", sampleRecord());
    expect(reads).toEqual([...once, ...once]);
  });

  test("the Signposting header reads only resource types and licences, and nothing when the record carries their props", async () => {
    const { service, reads } = countingService();
    const record = sampleRecord();
    const header = await service.signposting(record);
    expect(header).toContain('<https://schema.org/Dataset>; rel="type"');
    expect(reads.every((r) => r.startsWith("resourcetypes:") || r.startsWith("licenses:"))).toBe(true);
    const withProps = {
      ...record,
      metadata: { ...record.metadata, resource_type: { id: "dataset", props: { "schema.org": "https://schema.org/Dataset" } }, related_identifiers: [], rights: [] },
    };
    reads.length = 0;
    const answered = service.signposting(withProps);
    expect(answered instanceof Promise).toBe(false);
    expect(answered).toContain('<https://schema.org/Dataset>; rel="type"');
    expect(reads).toEqual([]);
  });
});
