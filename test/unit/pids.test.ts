// src/pids: DOI strings, the DataCite attribute mapping, the REST client and the registration job.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import contributorsroles from "../../data/vocabularies/contributorsroles.json";
import datetypes from "../../data/vocabularies/datetypes.json";
import descriptiontypes from "../../data/vocabularies/descriptiontypes.json";
import relationtypes from "../../data/vocabularies/relationtypes.json";
import resourcetypes from "../../data/vocabularies/resourcetypes.json";
import titletypes from "../../data/vocabularies/titletypes.json";
import { ManualClock } from "../../src/core/time";
import { openDatabase } from "../../src/db/sqlite/connection";
import { createJobRegistry } from "../../src/jobs/registry";
import { createJobsService } from "../../src/jobs/service";
import * as jobStore from "../../src/jobs/store";
import { createWorker } from "../../src/jobs/worker";
import { stripHtml } from "../../src/core/html";
import { DATACITE_SCHEMA_VERSION, dataciteAttributes, edtfYear } from "../../src/pids/datacite-attributes";
import type { VocabularyLookup } from "../../src/vocabularies/model";
import { DataciteError, createDataciteClient, dataciteApiUrl } from "../../src/pids/datacite-client";
import { doiResolverUrl, hasPrefix, mintDoi, normalizeDoi } from "../../src/pids/doi";
import { defineDataciteJobs, shouldRegister, type DataciteConfig } from "../../src/pids/jobs";
import { startFakeDatacite } from "../helpers/fake-datacite";

const USER = "REPO.CAIRN";
const PASSWORD = "s3cret-Pa55word";
const SITE = "https://cairn.example";

const shipped: Record<string, { id: string; title?: any; props?: any }[]> = {
  contributorsroles,
  datetypes,
  descriptiontypes,
  relationtypes,
  resourcetypes,
  titletypes,
  licenses: [
    { id: "cc-by-4.0", title: { en: "Creative Commons Attribution 4.0 International" }, props: { url: "https://creativecommons.org/licenses/by/4.0/legalcode", scheme: "spdx" } },
  ],
};
const vocabulary: VocabularyLookup = (type, id) => shipped[type]?.find((e) => e.id === id);

let fake: Awaited<ReturnType<typeof startFakeDatacite>>;
beforeAll(async () => {
  fake = await startFakeDatacite({ username: USER, password: PASSWORD });
});
afterAll(() => fake.stop());

describe("DOI strings", () => {
  test.each([
    ["10.1234/abc", "10.1234/abc"],
    ["10.1234/ABC-Def.5", "10.1234/abc-def.5"],
    ["  10.1234/abc\n", "10.1234/abc"],
    ["doi:10.1234/abc", "10.1234/abc"],
    ["DOI: 10.1234/abc", "10.1234/abc"],
    ["https://doi.org/10.1234/abc", "10.1234/abc"],
    ["http://dx.doi.org/10.1234/abc", "10.1234/abc"],
    ["HTTPS://DOI.ORG/10.1234/ABC", "10.1234/abc"],
    ["doi.org/10.1234/abc", "10.1234/abc"],
    ["https://handle.stage.datacite.org/10.1234/abc", "10.1234/abc"],
    ["https://doi.org/10.1234/a%2Fb", "10.1234/a/b"],
    ["10.1000.10/x(1);2/y", "10.1000.10/x(1);2/y"],
    ["10.5555/abc.123", "10.5555/abc.123"],
  ])("%p is the DOI %p", (input, expected) => {
    expect(normalizeDoi(input)).toBe(expected);
  });

  test.each([
    "",
    "abc",
    "10.1234",
    "10.1234/",
    "11.1234/abc",
    "10./abc",
    "10.abc/def",
    "10.12.ab/c",
    "10.1234/ab c",
    "doi:",
    "https://example.org/10.1234/abc",
    "https://doi.org/10.1234/a%ZZ",
    "https://doi.org/10.1234/a%20b",
    "x10.1234/abc",
  ])("%p is not a DOI", (input) => {
    expect(normalizeDoi(input)).toBeNull();
  });

  test("mintDoi fills DATACITE_FORMAT", () => {
    expect(mintDoi("{prefix}/{id}", "10.1234", "abcde-12345")).toBe("10.1234/abcde-12345");
    expect(mintDoi("{prefix}/cairn.{id}", "10.1234/", "abcde-12345")).toBe("10.1234/cairn.abcde-12345");
  });

  test("resolver URLs: doi.org, DataCite's stage handle server in test mode", () => {
    expect(doiResolverUrl("10.1234/abcde-12345", false)).toBe("https://doi.org/10.1234/abcde-12345");
    expect(doiResolverUrl("10.1234/abcde-12345", true)).toBe("https://handle.stage.datacite.org/10.1234/abcde-12345");
    expect(doiResolverUrl("10.1234/a#b?c d", false)).toBe("https://doi.org/10.1234/a%23b%3Fc%20d");
  });

  test("hasPrefix", () => {
    expect(hasPrefix("10.1234/abc", "10.1234")).toBe(true);
    expect(hasPrefix("https://doi.org/10.1234/ABC", "10.1234/")).toBe(true);
    expect(hasPrefix("10.12345/abc", "10.1234")).toBe(false);
    expect(hasPrefix("10.1234/abc", "")).toBe(false);
    expect(hasPrefix("not a doi", "10.1234")).toBe(false);
  });
});

const minimalRecord = {
  id: "abcde-12345",
  access: { record: "public", files: "public" },
  pids: { doi: { identifier: "10.1234/abcde-12345", provider: "datacite", client: "datacite" } },
  metadata: {
    resource_type: { id: "dataset" },
    title: "Ocean temperatures",
    publication_date: "2024-05-01",
    creators: [{ person_or_org: { type: "personal", name: "Doe, Jane", given_name: "Jane", family_name: "Doe" } }],
  },
};

const richRecord = {
  id: "fghjk-67890",
  updated: "2024-06-02 10:00:00.000000",
  access: { record: "public", files: "public" },
  parent: { id: "pqrst-11111", pids: { doi: { identifier: "10.1234/pqrst-11111", provider: "datacite", client: "datacite" } } },
  pids: {
    doi: { identifier: "10.1234/fghjk-67890", provider: "datacite", client: "datacite" },
    oai: { identifier: "oai:cairn.example:fghjk-67890", provider: "oai" },
  },
  metadata: {
    resource_type: { id: "image-photo", title: { en: "Photo" } },
    title: "Harbour seals",
    additional_titles: [{ title: "A survey", type: { id: "subtitle" }, lang: { id: "eng" } }],
    publication_date: "2023-09/2024-02",
    publisher: "Sea Institute",
    description: "<p>Seals &amp; <b>pups</b> on the &quot;north&quot; shore.</p>",
    additional_descriptions: [{ description: "<p>Drone flights</p>", type: { id: "methods" } }],
    creators: [
      {
        person_or_org: { type: "personal", given_name: "Ana", family_name: "Silva", identifiers: [{ scheme: "orcid", identifier: "0000-0002-1825-0097" }] },
        affiliations: [{ id: "01ggx4157", name: "CERN" }, { name: "Sea Institute" }],
      },
      { person_or_org: { type: "organizational", name: "Seal Watch", identifiers: [{ scheme: "ror", identifier: "03yrm5c26" }] } },
    ],
    contributors: [{ person_or_org: { type: "personal", name: "Berg, Ola", family_name: "Berg", given_name: "Ola" }, role: { id: "editor" } }],
    languages: [{ id: "eng" }, { id: "nor" }],
    dates: [{ date: "2023-09-01/2023-09-30", type: { id: "collected" }, description: "Field season" }],
    identifiers: [
      { scheme: "ark", identifier: "ark:/12345/x1" },
      { scheme: "doi", identifier: "10.9999/old" },
    ],
    related_identifiers: [
      { identifier: "10.5555/paper", scheme: "doi", relation_type: { id: "issupplementto" }, resource_type: { id: "publication-article" } },
      { identifier: "https://example.org/site", scheme: "url", relation_type: { id: "references" } },
      { identifier: "grid.1234.5", scheme: "grid", relation_type: { id: "references" } },
    ],
    sizes: ["12 images"],
    formats: ["image/jpeg"],
    version: "v2",
    rights: [{ id: "cc-by-4.0" }, { title: { en: "Ask the institute" }, link: "https://sea.example/terms" }],
    subjects: [{ subject: "seals" }, { id: "https://id.nlm.nih.gov/mesh/D012621", subject: "Seals, Earless", scheme: "MeSH" }],
    locations: { features: [{ place: "North shore", geometry: { type: "Point", coordinates: [10.5, 59.9] } }, { description: "nothing DataCite takes" }] },
    funding: [
      {
        funder: { id: "00k4n6c32", name: "European Commission", identifiers: [{ scheme: "ror", identifier: "00k4n6c32" }] },
        award: { number: "101000001", title: { en: "SEALS" }, identifiers: [{ scheme: "url", identifier: "https://cordis.europa.eu/project/id/101000001" }] },
      },
    ],
  },
};

describe("dataciteAttributes", () => {
  test("a minimal record", () => {
    expect(dataciteAttributes(minimalRecord, { doi: "10.1234/abcde-12345", url: `${SITE}/records/abcde-12345`, publisherFallback: "Cairn", vocabulary })).toEqual({
      doi: "10.1234/abcde-12345",
      url: `${SITE}/records/abcde-12345`,
      types: { resourceTypeGeneral: "Dataset", resourceType: "" },
      creators: [{ name: "Doe, Jane", nameType: "Personal", givenName: "Jane", familyName: "Doe" }],
      titles: [{ title: "Ocean temperatures" }],
      publisher: { name: "Cairn" },
      publicationYear: "2024",
      dates: [{ date: "2024-05-01", dateType: "Issued" }],
      alternateIdentifiers: [{ alternateIdentifier: `${SITE}/records/abcde-12345`, alternateIdentifierType: "URL" }],
      schemaVersion: DATACITE_SCHEMA_VERSION,
    });
  });

  test("a rich record", () => {
    const url = `${SITE}/records/fghjk-67890`;
    expect(dataciteAttributes(richRecord, { doi: "10.1234/fghjk-67890", url, publisherFallback: "Cairn", vocabulary })).toEqual({
      doi: "10.1234/fghjk-67890",
      url,
      types: { resourceTypeGeneral: "Image", resourceType: "Photo" },
      creators: [
        {
          name: "Silva, Ana",
          nameType: "Personal",
          givenName: "Ana",
          familyName: "Silva",
          nameIdentifiers: [{ nameIdentifier: "0000-0002-1825-0097", nameIdentifierScheme: "ORCID" }],
          affiliation: [
            { name: "CERN", affiliationIdentifier: "https://ror.org/01ggx4157", affiliationIdentifierScheme: "ROR", schemeUri: "https://ror.org" },
            { name: "Sea Institute" },
          ],
        },
        { name: "Seal Watch", nameType: "Organizational", nameIdentifiers: [{ nameIdentifier: "03yrm5c26", nameIdentifierScheme: "ROR" }] },
      ],
      titles: [{ title: "Harbour seals" }, { title: "A survey", titleType: "Subtitle", lang: "eng" }],
      publisher: { name: "Sea Institute" },
      publicationYear: "2023",
      contributors: [{ name: "Berg, Ola", nameType: "Personal", givenName: "Ola", familyName: "Berg", contributorType: "Editor" }],
      descriptions: [
        { description: 'Seals & pups on the "north" shore.', descriptionType: "Abstract" },
        { description: "Drone flights", descriptionType: "Methods" },
      ],
      dates: [
        { date: "2023-09/2024-02", dateType: "Issued" },
        { date: "2023-09-01/2023-09-30", dateType: "Collected", dateInformation: "Field season" },
        { date: "2024-06-02", dateType: "Updated" },
      ],
      language: "eng",
      alternateIdentifiers: [
        { alternateIdentifier: url, alternateIdentifierType: "URL" },
        { alternateIdentifier: "oai:cairn.example:fghjk-67890", alternateIdentifierType: "oai" },
        { alternateIdentifier: "ark:/12345/x1", alternateIdentifierType: "ARK" },
        { alternateIdentifier: "10.9999/old", alternateIdentifierType: "DOI" },
      ],
      relatedIdentifiers: [
        { relatedIdentifier: "10.5555/paper", relatedIdentifierType: "DOI", relationType: "IsSupplementTo", resourceTypeGeneral: "JournalArticle" },
        { relatedIdentifier: "https://example.org/site", relatedIdentifierType: "URL", relationType: "References" },
        { relatedIdentifier: "10.1234/pqrst-11111", relatedIdentifierType: "DOI", relationType: "IsVersionOf" },
      ],
      sizes: ["12 images"],
      formats: ["image/jpeg"],
      version: "v2",
      rightsList: [
        {
          rights: "Creative Commons Attribution 4.0 International",
          rightsUri: "https://creativecommons.org/licenses/by/4.0/legalcode",
          rightsIdentifier: "cc-by-4.0",
          rightsIdentifierScheme: "spdx",
        },
        { rights: "Ask the institute", rightsUri: "https://sea.example/terms" },
      ],
      subjects: [{ subject: "seals" }, { subject: "Seals, Earless", subjectScheme: "MeSH", valueUri: "https://id.nlm.nih.gov/mesh/D012621" }],
      geoLocations: [{ geoLocationPlace: "North shore", geoLocationPoint: { pointLongitude: 10.5, pointLatitude: 59.9 } }],
      fundingReferences: [
        {
          funderName: "European Commission",
          funderIdentifier: "00k4n6c32",
          funderIdentifierType: "ROR",
          awardNumber: "101000001",
          awardTitle: "SEALS",
          awardUri: "https://cordis.europa.eu/project/id/101000001",
        },
      ],
      schemaVersion: DATACITE_SCHEMA_VERSION,
    });
  });

  test("the concept DOI lists its versions instead of pointing at a parent", () => {
    const attrs = dataciteAttributes(richRecord, {
      doi: "10.1234/pqrst-11111",
      url: `${SITE}/records/pqrst-11111`,
      publisherFallback: "Cairn",
      vocabulary,
      versionDois: ["10.1234/v1", "10.1234/fghjk-67890"],
    });
    expect(attrs.relatedIdentifiers.slice(-2)).toEqual([
      { relatedIdentifier: "10.1234/v1", relatedIdentifierType: "DOI", relationType: "HasVersion" },
      { relatedIdentifier: "10.1234/fghjk-67890", relatedIdentifierType: "DOI", relationType: "HasVersion" },
    ]);
    expect(attrs.relatedIdentifiers.some((r: any) => r.relationType === "IsVersionOf")).toBe(false);
  });

  test("props carried by the record win; unknown resource types are Other", () => {
    const withProps = { ...minimalRecord, metadata: { ...minimalRecord.metadata, resource_type: { id: "x", props: { datacite_general: "Software", datacite_type: "Tool" } } } };
    expect(dataciteAttributes(withProps, { doi: "d", url: "u", publisherFallback: "C" }).types).toEqual({ resourceTypeGeneral: "Software", resourceType: "Tool" });
    const unknown = { ...minimalRecord, metadata: { ...minimalRecord.metadata, resource_type: { id: "nope" } } };
    expect(dataciteAttributes(unknown, { doi: "d", url: "u", publisherFallback: "C", vocabulary }).types).toEqual({ resourceTypeGeneral: "Other", resourceType: "" });
  });

  test("EDTF years and HTML stripping", () => {
    expect([edtfYear("2020"), edtfYear("2020-11-10"), edtfYear("1939/1945"), edtfYear("1939-09-01/1945-09"), edtfYear(undefined)]).toEqual([
      "2020",
      "2020",
      "1939",
      "1939",
      undefined,
    ]);
    expect(stripHtml("<p>a &lt;b&gt; &#233;&#x263A;</p><script>x()</script>")).toBe("a <b> é☺");
  });
});

describe("DataCite client against the fake", () => {
  const client = () => createDataciteClient({ url: fake.url, username: USER, password: PASSWORD });
  const attrs = (doi: string) => dataciteAttributes({ ...minimalRecord, pids: {} }, { doi, url: `${SITE}/records/x`, publisherFallback: "Cairn", vocabulary });

  test("PUT creates a DOI, then updates it; GET reads it back", async () => {
    const doi = "10.1234/client-1";
    const draft = await client().upsertDoi(doi, { url: `${SITE}/records/x` });
    expect(draft.attributes).toMatchObject({ doi, state: "draft" });
    const published = await client().upsertDoi(doi, { ...attrs(doi), titles: [{ title: "New title" }] }, "publish");
    expect(published.attributes).toMatchObject({ doi, state: "findable", titles: [{ title: "New title" }], publisher: { name: "Cairn" } });
    const sent = fake.requests.at(-1)!;
    expect(sent).toMatchObject({ method: "PUT", path: `/dois/${doi}`, username: USER, contentType: "application/vnd.api+json", status: 200 });
    expect(sent.body.data).toMatchObject({ id: doi, type: "dois", attributes: { doi, event: "publish" } });
    expect((await client().getDoi(doi))?.attributes.state).toBe("findable");
    expect(await client().getDoi("10.1234/never-made")).toBeNull();
  });

  test("hide and register move the state as DataCite does", async () => {
    const doi = "10.1234/client-2";
    await client().upsertDoi(doi, attrs(doi), "publish");
    expect((await client().upsertDoi(doi, {}, "hide")).attributes.state).toBe("registered");
    expect((await client().upsertDoi(doi, {}, "publish")).attributes.state).toBe("findable");
    const other = "10.1234/client-3";
    expect((await client().upsertDoi(other, attrs(other), "register")).attributes.state).toBe("registered");
  });

  test("DataCite's validation errors come back with status, field and text", async () => {
    const err = await client()
      .upsertDoi("10.1234/client-4", { url: `${SITE}/x`, titles: [] }, "publish")
      .catch((e) => e);
    expect(err).toBeInstanceOf(DataciteError);
    expect(err.status).toBe(422);
    expect(err.errors.map((e: any) => e.source)).toEqual(["titles", "creators", "publisher", "publicationYear", "types"]);
    expect(err.message).toContain("titles: can't be blank");
  });

  test("a wrong password is a 401 whose error never shows the password", async () => {
    const wrong = "Wr0ng-Password!";
    const err = await createDataciteClient({ url: fake.url, username: USER, password: wrong })
      .upsertDoi("10.1234/client-5", {}, undefined)
      .catch((e) => e);
    expect(err).toBeInstanceOf(DataciteError);
    expect(err.status).toBe(401);
    expect(err.message).toContain("Bad credentials");
    const everything = `${err.message} ${err.stack} ${JSON.stringify(err)} ${Bun.inspect(err)}`;
    expect(everything).not.toContain(wrong);
    expect(everything).not.toContain(Buffer.from(`${USER}:${wrong}`).toString("base64"));
    expect(Bun.inspect(createDataciteClient({ url: fake.url, username: USER, password: wrong }))).not.toContain(wrong);
  });

  test("server errors and an unreachable server are errors with a status", async () => {
    fake.failNext(1);
    expect(
      (
        await client()
          .getDoi("10.1234/x")
          .catch((e) => e)
      ).status,
    ).toBe(500);
    const gone = await startFakeDatacite({ username: USER, password: PASSWORD });
    await gone.stop();
    const err = await createDataciteClient({ url: gone.url, username: USER, password: PASSWORD })
      .getDoi("10.1234/x")
      .catch((e) => e);
    expect(err).toBeInstanceOf(DataciteError);
    expect(err.status).toBe(0);
  });

  test("the API URL follows DATACITE_URL, then DATACITE_TEST_MODE", () => {
    expect(dataciteApiUrl({ DATACITE_URL: "http://127.0.0.1:9/", DATACITE_TEST_MODE: true })).toBe("http://127.0.0.1:9/");
    expect(dataciteApiUrl({ DATACITE_URL: "", DATACITE_TEST_MODE: true })).toBe("https://api.test.datacite.org");
    expect(dataciteApiUrl({ DATACITE_URL: "", DATACITE_TEST_MODE: false })).toBe("https://api.datacite.org");
  });
});

describe("the datacite-register job", () => {
  const T0 = Date.UTC(2026, 0, 1);
  const config: DataciteConfig = {
    DATACITE_ENABLED: true,
    DATACITE_PREFIX: "10.1234",
    DATACITE_USERNAME: USER,
    DATACITE_PASSWORD: PASSWORD,
    DATACITE_TEST_MODE: true,
    DATACITE_URL: "",
  };

  function setup(records: Record<string, any>[], overrides: Partial<DataciteConfig> = {}) {
    const clock = new ManualClock(T0);
    const db = openDatabase(":memory:", clock.now());
    const registry = createJobRegistry();
    const logs: string[] = [];
    const log = (m: string) => logs.push(m);
    defineDataciteJobs(registry, {
      config: { ...config, DATACITE_URL: fake.url, ...overrides },
      loadRecord: async (id) => records.find((r) => r.id === id) ?? null,
      recordUrl: (id) => `${SITE}/records/${id}`,
      log,
      vocabulary,
    });
    const deps = { db, clock, registry, log };
    return {
      clock,
      logs,
      worker: createWorker(deps, { concurrency: 1, pollMs: 5 }),
      jobs: createJobsService(deps),
      job: async (id: number) => (await jobStore.findJobById(db, id))!,
    };
  }

  const published = (id: string, parentId: string, extra: Record<string, any> = {}) => ({
    ...minimalRecord,
    id,
    pids: { doi: { identifier: `10.1234/${id}`, provider: "datacite", client: "datacite" } },
    parent: { id: parentId, pids: { doi: { identifier: `10.1234/${parentId}`, provider: "datacite", client: "datacite" } } },
    versions: { index: 1, is_latest: true },
    ...extra,
  });

  test("registers the record's DOI and the concept DOI as findable", async () => {
    const { jobs, worker, job } = setup([published("jobaa-00001", "jobpa-00001")]);
    const row = await jobs.enqueue("datacite-register", { recordId: "jobaa-00001" });
    expect(row.maxAttempts).toBe(8);
    expect(await worker.drain()).toBe(1);
    expect(await job(row.id)).toMatchObject({
      status: "succeeded",
      result: { doi: "10.1234/jobaa-00001", state: "findable", parent: { doi: "10.1234/jobpa-00001", state: "findable" } },
    });
    const version = fake.dois.get("10.1234/jobaa-00001")!;
    expect(version.state).toBe("findable");
    expect(version.attributes.url).toBe(`${SITE}/records/jobaa-00001`);
    expect(version.attributes.relatedIdentifiers).toEqual([{ relatedIdentifier: "10.1234/jobpa-00001", relatedIdentifierType: "DOI", relationType: "IsVersionOf" }]);
    const concept = fake.dois.get("10.1234/jobpa-00001")!;
    expect(concept.state).toBe("findable");
    expect(concept.attributes.url).toBe(`${SITE}/records/jobpa-00001`);
    expect(concept.attributes.relatedIdentifiers).toEqual([{ relatedIdentifier: "10.1234/jobaa-00001", relatedIdentifierType: "DOI", relationType: "HasVersion" }]);
  });

  test("a DataCite failure is retried after the backoff, then succeeds", async () => {
    const { jobs, worker, job, clock } = setup([published("jobab-00002", "jobpb-00002")]);
    fake.failNext(1);
    const row = await jobs.enqueue("datacite-register", { recordId: "jobab-00002" });
    await worker.drain();
    expect(await job(row.id)).toMatchObject({ status: "queued", attempts: 1, runAt: T0 + 60_000 });
    expect((await job(row.id)).lastError).toContain("answered 500");
    expect(fake.dois.has("10.1234/jobab-00002")).toBe(false);
    clock.advance(59_999);
    expect(await worker.drain()).toBe(0);
    clock.advance(1);
    expect(await worker.drain()).toBe(1);
    expect(await job(row.id)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(fake.dois.get("10.1234/jobab-00002")?.state).toBe("findable");
  });

  test("a payload parentDoi is registered and linked even before the record shows it", async () => {
    const record = { ...published("jobac-00003", "jobpc-00003"), parent: { id: "jobpc-00003", pids: {} } };
    const { jobs, worker } = setup([record]);
    await jobs.enqueue("datacite-register", { recordId: "jobac-00003", parentDoi: "10.1234/jobpc-00003" });
    await worker.drain();
    expect(fake.dois.get("10.1234/jobpc-00003")?.state).toBe("findable");
    expect(fake.dois.get("10.1234/jobac-00003")?.attributes.relatedIdentifiers[0].relationType).toBe("IsVersionOf");
  });

  test("restricted records: nothing is sent for an unknown DOI; a findable DOI is hidden without metadata", async () => {
    const record: Record<string, any> = published("jobad-00004", "jobpd-00004", { access: { record: "restricted", files: "restricted" } });
    const { jobs, worker, job } = setup([record]);
    const before = fake.requests.length;
    const first = await jobs.enqueue("datacite-register", { recordId: "jobad-00004" });
    await worker.drain();
    expect(await job(first.id)).toMatchObject({ status: "succeeded", result: { state: "unregistered", parent: { state: "unregistered" } } });
    expect(fake.requests.slice(before).every((r) => r.method === "GET")).toBe(true);
    expect(fake.dois.has("10.1234/jobad-00004")).toBe(false);

    record.access = { record: "public", files: "public" };
    await jobs.enqueue("datacite-register", { recordId: "jobad-00004" });
    await worker.drain();
    expect(fake.dois.get("10.1234/jobad-00004")?.state).toBe("findable");

    record.access = { record: "restricted", files: "restricted" };
    const mark = fake.requests.length;
    await jobs.enqueue("datacite-register", { recordId: "jobad-00004" });
    await worker.drain();
    expect(fake.dois.get("10.1234/jobad-00004")?.state).toBe("registered");
    expect(fake.dois.get("10.1234/jobpd-00004")?.state).toBe("registered");
    const puts = fake.requests.slice(mark).filter((r) => r.method === "PUT");
    expect(puts.map((r) => r.body.data.attributes)).toEqual([
      { doi: "10.1234/jobad-00004", event: "hide" },
      { doi: "10.1234/jobpd-00004", event: "hide" },
    ]);
  });

  test("skips records without a DataCite DOI, older versions' concept DOI, and unconfigured accounts", async () => {
    const external = { ...minimalRecord, id: "jobae-00005", pids: { doi: { identifier: "10.5555/ext", provider: "external" } } };
    const old = published("jobaf-00006", "jobpf-00006", { versions: { index: 1, is_latest: false } });
    const { jobs, worker, job } = setup([external, old]);
    const a = await jobs.enqueue("datacite-register", { recordId: "jobae-00005" });
    const b = await jobs.enqueue("datacite-register", { recordId: "jobaf-00006" });
    const c = await jobs.enqueue("datacite-register", { recordId: "missing" });
    await worker.drain();
    expect((await job(a.id)).result).toEqual({ skipped: "the record has no DataCite DOI" });
    expect((await job(b.id)).result).toEqual({ doi: "10.1234/jobaf-00006", state: "findable" });
    expect(fake.dois.has("10.1234/jobpf-00006")).toBe(false);
    expect((await job(c.id)).result).toEqual({ skipped: "record missing not found" });

    const off = setup([published("jobag-00007", "jobpg-00007")], { DATACITE_PASSWORD: "" });
    expect(off.logs[0]).toContain("DOIs will not be registered");
    const d = await off.jobs.enqueue("datacite-register", { recordId: "jobag-00007" });
    await off.worker.drain();
    expect((await off.job(d.id)).result).toEqual({ skipped: "DataCite registration is off or not configured" });
    expect(fake.dois.has("10.1234/jobag-00007")).toBe(false);
  });

  test("shouldRegister needs DATACITE_ENABLED, a prefix, a username and a password", () => {
    expect(shouldRegister(config)).toBe(true);
    for (const key of ["DATACITE_ENABLED", "DATACITE_PREFIX", "DATACITE_USERNAME", "DATACITE_PASSWORD"] as const) {
      expect(shouldRegister({ ...config, [key]: key === "DATACITE_ENABLED" ? false : "" })).toBe(false);
    }
  });
});
