// The deposit page's own helpers: the identifier-schemes script made from the server's module
// detects what the server detects, and resource types are offered with their parent.
import { describe, expect, test } from "bun:test";
import { resourceTypeChoices } from "../../src/pages/deposit/choices";
import { identifierSchemesJs } from "../../src/pages/deposit/schemes-asset";
import { RECORD_IDENTIFIER_SCHEMES, detectSchemes, isValidIdentifier } from "../../src/records/metadata/identifiers";
import { shippedVocabularies } from "../../src/vocabularies/fixtures";

describe("identifier-schemes.js", () => {
  const window: Record<string, any> = {};
  new Function("window", identifierSchemesJs)(window);
  const browser = window.cairnIdentifiers;

  test("detects and checks as the server does", () => {
    const samples = [
      "10.1234/x",
      "https://doi.org/10.1234/x",
      "arXiv:1501.00001",
      "978-3-16-148410-0",
      "0000000121032683",
      "0000-0002-1825-0097",
      "https://example.org/a",
      "urn:nbn:de:1",
      "hdl:20.500/1",
      "pmid:123",
      "junk",
    ];
    for (const value of samples) expect(browser.detectSchemes(value)).toEqual(detectSchemes(value));
    expect(browser.isValidIdentifier("isbn", "978-3-16-148410-0")).toBe(isValidIdentifier("isbn", "978-3-16-148410-0"));
    expect(browser.RECORD_IDENTIFIER_SCHEMES).toEqual([...RECORD_IDENTIFIER_SCHEMES]);
  });

  test("is a classic script: no import or export left", () => {
    expect(identifierSchemesJs).not.toMatch(/^\s*(import|export)\b/m);
  });
});

describe("resource types", () => {
  const entries = shippedVocabularies().find((v) => v.type === "resourcetypes")!.entries as Record<string, any>[];
  const choices = resourceTypeChoices(entries);
  const titles = choices.map((c) => c.title);

  test("children carry their parent's title, a parent comes before its children", () => {
    expect(choices.find((c) => c.id === "image-other")!.title).toBe("Image: Other");
    expect(choices.find((c) => c.id === "publication-other")!.title).toBe("Publication: Other");
    expect(choices.find((c) => c.id === "dataset")!.title).toBe("Dataset");
    expect(titles.indexOf("Image")).toBeLessThan(titles.indexOf("Image: Figure"));
  });

  test("no title is offered twice: two children of one title are told apart by their ids", () => {
    expect(new Set(titles).size).toBe(titles.length);
    expect(titles).toContain("Publication: Thesis (publication-thesis)");
    expect(titles).toContain("Publication: Thesis (publication-dissertation)");
    expect(titles.filter((t) => t.endsWith("Other"))).toEqual(["Image: Other", "Other", "Publication: Other"]);
  });
});
