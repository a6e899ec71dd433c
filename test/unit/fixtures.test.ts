// Shipped vocabularies: completeness against their sources, exact spot values, shape, and the version hash.
import { describe, expect, test } from "bun:test";
import { iso6393 } from "iso-639-3";
import spdxLicences from "spdx-license-list/spdx.json" with { type: "json" };
import { fixturesVersion, shippedVocabularies, vocabulariesHash } from "../../src/vocabularies/fixtures";
import { GENERIC_TYPES, type GenericEntry, type GenericType } from "../../src/vocabularies/model";

const vocabularies = shippedVocabularies();

function entries(type: GenericType): GenericEntry[] {
  const found = vocabularies.find((vocabulary) => vocabulary.type === type);
  if (!found) throw new Error(`no shipped vocabulary ${type}`);
  return found.entries;
}

function entry(type: GenericType, id: string): GenericEntry {
  const found = entries(type).find((item) => item.id === id);
  if (!found) throw new Error(`no ${type} entry ${id}`);
  return found;
}

const ids = (type: GenericType) => entries(type).map((item) => item.id);

/** The role ids listed in invenio-behaviour §3.3. */
const SPEC_ROLES = [
  "contactperson",
  "datacollector",
  "datacurator",
  "datamanager",
  "distributor",
  "editor",
  "hostinginstitution",
  "producer",
  "projectleader",
  "projectmanager",
  "projectmember",
  "registrationagency",
  "registrationauthority",
  "relatedperson",
  "researcher",
  "researchgroup",
  "rightsholder",
  "sponsor",
  "supervisor",
  "workpackageleader",
  "other",
];

/** The relation type ids listed in invenio-behaviour §3.3. */
const SPEC_RELATIONS = [
  "iscitedby",
  "cites",
  "issupplementto",
  "issupplementedby",
  "iscontinuedby",
  "continues",
  "isdescribedby",
  "describes",
  "hasversion",
  "isversionof",
  "isnewversionof",
  "ispreviousversionof",
  "ispartof",
  "haspart",
  "isreferencedby",
  "references",
  "isdocumentedby",
  "documents",
  "iscompiledby",
  "compiles",
  "isvariantformof",
  "isoriginalformof",
  "isidenticalto",
  "isreviewedby",
  "reviews",
  "isderivedfrom",
  "issourceof",
  "isrequiredby",
  "requires",
  "isobsoletedby",
  "obsoletes",
];

describe("shippedVocabularies", () => {
  test("covers every generic type, in GENERIC_TYPES order", () => {
    expect(vocabularies.map((vocabulary) => vocabulary.type)).toEqual([...GENERIC_TYPES]);
  });

  test("the counts of the hand-typed lists", () => {
    const counts = Object.fromEntries(vocabularies.map(({ type, entries }) => [type, entries.length]));
    expect(counts).toMatchObject({
      resourcetypes: 45,
      creatorsroles: 22,
      contributorsroles: 22,
      titletypes: 4,
      descriptiontypes: 6,
      datetypes: 11,
      relationtypes: 38,
      communitytypes: 4,
      removalreasons: 12,
    });
  });

  test("ids are unique within each type, and every entry has an English title", () => {
    for (const { type, entries } of vocabularies) {
      const seen = new Set(entries.map((item) => item.id));
      expect({ type, unique: seen.size }).toEqual({ type, unique: entries.length });
      const untitled = entries.filter((item) => typeof item.title.en !== "string" || item.title.en.trim() === "");
      expect({ type, untitled: untitled.map((item) => item.id) }).toEqual({ type, untitled: [] });
      const badProps = entries.filter((item) => Object.values(item.props ?? {}).some((value) => typeof value !== "string"));
      expect({ type, badProps: badProps.map((item) => item.id) }).toEqual({ type, badProps: [] });
    }
  });

  test("each call builds fresh entries, so a caller's change does not leak into the next call", () => {
    const first = shippedVocabularies();
    const dataset = first[0]!.entries.find((item) => item.id === "dataset")!;
    dataset.title.en = "changed";
    dataset.props!.csl = "changed";
    expect(entry("resourcetypes", "dataset").title.en).toBe("Dataset");
    const again = shippedVocabularies()[0]!.entries.find((item) => item.id === "dataset")!;
    expect(again.title.en).toBe("Dataset");
    expect(again.props!.csl).toBe("dataset");
  });
});

describe("resourcetypes", () => {
  test("dataset", () => {
    expect(entry("resourcetypes", "dataset")).toEqual({
      id: "dataset",
      title: { en: "Dataset" },
      icon: "table",
      props: {
        csl: "dataset",
        datacite_general: "Dataset",
        datacite_type: "",
        openaire_resourceType: "0021",
        openaire_type: "dataset",
        eurepo: "info:eu-repo/semantics/other",
        "schema.org": "https://schema.org/Dataset",
        subtype: "",
        type: "dataset",
        marc21_type: "dataset",
        marc21_subtype: "",
      },
      tags: ["depositable", "linkable"],
    });
  });

  test("publication-article and image-photo", () => {
    const article = entry("resourcetypes", "publication-article");
    expect(article.title).toEqual({ en: "Journal article" });
    expect(article.props).toMatchObject({ csl: "article-journal", type: "publication", subtype: "publication-article", datacite_general: "JournalArticle" });
    const photo = entry("resourcetypes", "image-photo");
    expect(photo.title).toEqual({ en: "Photo" });
    expect(photo.props).toMatchObject({
      type: "image",
      subtype: "image-photo",
      csl: "graphic",
      datacite_general: "Image",
      datacite_type: "Photo",
      "schema.org": "https://schema.org/Photograph",
    });
  });

  test("entries newer releases added are there", () => {
    expect(entry("resourcetypes", "publication-conferenceproceeding").props).toMatchObject({ datacite_general: "ConferenceProceeding", csl: "paper-conference" });
    expect(entry("resourcetypes", "physicalobject").title).toEqual({ en: "Physical object" });
    expect(entry("resourcetypes", "publication-dissertation").title).toEqual({ en: "Thesis" });
    // Kept beside its newer id: §3.4 and existing client scripts use publication-thesis.
    expect(entry("resourcetypes", "publication-thesis")).toMatchObject({
      title: { en: "Thesis" },
      props: { csl: "thesis", datacite_general: "Dissertation", subtype: "publication-thesis" },
    });
    expect(ids("resourcetypes")).toContain("software-computationalnotebook");
  });

  test("every entry has all the mapping props, tags, and type/subtype consistent with its id", () => {
    const keys = ["csl", "datacite_general", "datacite_type", "eurepo", "openaire_resourceType", "openaire_type", "schema.org", "type", "subtype"];
    for (const item of entries("resourcetypes")) {
      for (const key of keys) expect({ id: item.id, key, has: typeof item.props?.[key] === "string" }).toEqual({ id: item.id, key, has: true });
      expect(item.tags).toEqual(["depositable", "linkable"]);
      const [type, ...rest] = item.id.split("-");
      expect({ id: item.id, type: item.props?.type, subtype: item.props?.subtype }).toEqual({ id: item.id, type, subtype: rest.length ? item.id : "" });
    }
  });
});

describe("roles", () => {
  for (const type of ["creatorsroles", "contributorsroles"] as const) {
    test(`${type} holds the roles of invenio-behaviour §3.3 with DataCite and MARC codes`, () => {
      expect(ids(type)).toEqual(expect.arrayContaining(SPEC_ROLES));
      expect(entry(type, "contactperson")).toEqual({ id: "contactperson", title: { en: "Contact person" }, props: { datacite: "ContactPerson", marc: "prc" } });
      expect(entry(type, "hostinginstitution").props).toEqual({ datacite: "HostingInstitution", marc: "his" });
      expect(entry(type, "workpackageleader").props).toEqual({ datacite: "WorkPackageLeader", marc: "led" });
      expect(entry(type, "other").props).toEqual({ datacite: "Other", marc: "oth" });
      for (const item of entries(type)) expect(item.props?.datacite).toMatch(/^[A-Z][A-Za-z]+$/);
    });
  }

  test("creators and contributors share one list", () => {
    expect(entries("creatorsroles")).toEqual(entries("contributorsroles"));
  });
});

describe("the smaller InvenioRDM lists", () => {
  test("title, description and date types", () => {
    expect(ids("titletypes")).toEqual(["alternative-title", "subtitle", "translated-title", "other"]);
    expect(entry("titletypes", "alternative-title")).toEqual({ id: "alternative-title", title: { en: "Alternative title" }, props: { datacite: "AlternativeTitle" } });
    expect(ids("descriptiontypes")).toEqual(["abstract", "methods", "series-information", "table-of-contents", "technical-info", "other"]);
    expect(entry("descriptiontypes", "series-information").props).toEqual({ datacite: "SeriesInformation" });
    expect(ids("datetypes")).toEqual(["accepted", "available", "collected", "copyrighted", "created", "issued", "other", "submitted", "updated", "valid", "withdrawn"]);
    expect(entry("datetypes", "copyrighted")).toEqual({ id: "copyrighted", title: { en: "Copyrighted" }, props: { datacite: "Copyrighted" } });
  });

  test("relation types hold those of invenio-behaviour §3.3 with DataCite names", () => {
    expect(ids("relationtypes")).toEqual(expect.arrayContaining(SPEC_RELATIONS));
    expect(entry("relationtypes", "issupplementto")).toEqual({ id: "issupplementto", title: { en: "Is supplement to" }, props: { datacite: "IsSupplementTo" } });
    expect(entry("relationtypes", "ispublishedin").props).toEqual({ datacite: "IsPublishedIn" });
    for (const item of entries("relationtypes")) expect(item.props?.datacite?.toLowerCase()).toBe(item.id);
  });

  test("community types and removal reasons", () => {
    expect(entries("communitytypes")).toEqual([
      { id: "organization", title: { en: "Organization" } },
      { id: "event", title: { en: "Event" } },
      { id: "topic", title: { en: "Topic" } },
      { id: "project", title: { en: "Project" } },
    ]);
    expect(ids("removalreasons")).toEqual([
      "duplicate",
      "retracted",
      "replaced",
      "spam",
      "test-record",
      "copyright",
      "personal-data",
      "take-down-request",
      "disputed-authorship",
      "misconduct",
      "fraud",
      "out-of-scope",
    ]);
    expect(entry("removalreasons", "retracted").title).toEqual({ en: "Retraction/Withdrawal of a record" });
  });
});

describe("languages", () => {
  test("all of ISO 639-3 from the iso-639-3 package", () => {
    expect(entries("languages").length).toBe(iso6393.length);
    expect(entries("languages").length).toBeGreaterThan(7000);
  });

  test("spot values", () => {
    expect(entry("languages", "eng")).toEqual({
      id: "eng",
      title: { en: "English" },
      props: { alpha_2: "en", alpha_3b: "eng", alpha_3t: "eng" },
      tags: ["individual", "living"],
    });
    expect(entry("languages", "deu").props).toEqual({ alpha_2: "de", alpha_3b: "ger", alpha_3t: "deu" });
    expect(entry("languages", "ara").tags).toEqual(["macrolanguage", "living"]);
    expect(entry("languages", "und").tags).toEqual(["special"]);
    const ghotuo = entry("languages", "aaa");
    expect(ghotuo.title).toEqual({ en: "Ghotuo" });
    expect(ghotuo.props).toBeUndefined();
  });
});

describe("licenses", () => {
  const licences = spdxLicences as Record<string, { name: string; url?: string; osiApproved: boolean }>;

  test("all SPDX licences from spdx-license-list, under lower-cased ids", () => {
    expect(entries("licenses").length).toBe(Object.keys(licences).length);
    expect(entries("licenses").length).toBeGreaterThan(500);
    for (const item of entries("licenses")) {
      expect(item.id).toBe(item.id.toLowerCase());
      expect(item.props?.scheme).toBe("spdx");
      expect(["true", "false"]).toContain(item.props!.osi_approved!);
    }
    expect(ids("licenses")).toEqual(
      Object.keys(licences)
        .map((id) => id.toLowerCase())
        .sort((a, b) => (a < b ? -1 : 1)),
    );
  });

  test("every licence has props.url (zen4R's getLicenses() reads it): the licence's own, or its SPDX License List page", () => {
    const missing = entries("licenses").filter((item) => !/^[a-z]+:\/\/\S+$/.test(item.props?.url ?? ""));
    expect(missing.map((item) => item.id)).toEqual([]);
    // The three SPDX entries without a URL of their own.
    expect(entry("licenses", "alglib-documentation")?.props?.url).toBe("https://spdx.org/licenses/ALGLIB-Documentation.html");
    expect(entry("licenses", "hpnd-netrek")?.props?.url).toBe("https://spdx.org/licenses/HPND-Netrek.html");
    expect(entry("licenses", "schemereport")?.props?.url).toBe("https://spdx.org/licenses/SchemeReport.html");
  });

  test("cc-by-4.0, with InvenioRDM's icon, description and recommended tag", () => {
    expect(entry("licenses", "cc-by-4.0")).toEqual({
      id: "cc-by-4.0",
      title: { en: "Creative Commons Attribution 4.0 International" },
      props: { url: "https://creativecommons.org/licenses/by/4.0/legalcode", scheme: "spdx", osi_approved: "false" },
      icon: "cc-by-icon",
      description: {
        en: "The Creative Commons Attribution license allows re-distribution and re-use of a licensed work on the condition that the creator is appropriately credited.",
      },
      tags: ["recommended"],
    });
    expect(entry("licenses", "cc0-1.0")).toMatchObject({ icon: "cc-cc0-icon", tags: ["recommended"], title: { en: "Creative Commons Zero v1.0 Universal" } });
  });

  test("mit and apache-2.0 follow the package", () => {
    expect(entry("licenses", "mit")).toMatchObject({
      title: { en: licences.MIT!.name },
      props: { url: licences.MIT!.url, scheme: "spdx", osi_approved: "true" },
      tags: ["recommended"],
    });
    expect(entry("licenses", "apache-2.0").props).toEqual({ url: licences["Apache-2.0"]!.url!, scheme: "spdx", osi_approved: "true" });
    const recommended = entries("licenses")
      .filter((item) => item.tags?.includes("recommended"))
      .map((item) => item.id);
    expect(recommended.sort()).toEqual(["apache-2.0", "cc-by-4.0", "cc-by-sa-4.0", "cc0-1.0", "gpl-3.0-or-later", "mit"]);
  });
});

describe("fixturesVersion", () => {
  test("is a sha256 hex digest, stable across calls and equal to the hash of the shipped data", () => {
    const version = fixturesVersion();
    expect(version).toMatch(/^[0-9a-f]{64}$/);
    expect(fixturesVersion()).toBe(version);
    expect(vocabulariesHash(shippedVocabularies())).toBe(version);
  });

  test("changes when any shipped value changes", () => {
    const version = fixturesVersion();
    const retitled = shippedVocabularies();
    retitled[0]!.entries[0]!.title.en = "Publications";
    expect(vocabulariesHash(retitled)).not.toBe(version);

    const fewer = shippedVocabularies();
    fewer[fewer.length - 1]!.entries.pop();
    expect(vocabulariesHash(fewer)).not.toBe(version);

    const newProp = shippedVocabularies();
    newProp[1]!.entries[0]!.props = { ...newProp[1]!.entries[0]!.props, alpha_2: "xx" };
    expect(vocabulariesHash(newProp)).not.toBe(version);
  });
});
