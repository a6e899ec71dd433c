// DOIs: off without a prefix; reserved, discarded, minted at publish with a concept DOI; external
// DOIs; and registration with a (fake) DataCite after publish.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/core/actor";
import { createTestApp, type TestApp } from "../helpers/app";
import { startFakeDatacite } from "../helpers/fake-datacite";
import { createDraft, publishableDraft } from "../helpers/records";

const PREFIX = "10.1234";
let off: TestApp;
let on: TestApp;

beforeAll(async () => {
  off = await createTestApp();
  on = await createTestApp({ DATACITE_PREFIX: PREFIX, DATACITE_TEST_MODE: false });
});
afterAll(async () => {
  await off.close();
  await on.close();
});

describe("without a prefix", () => {
  test("reserving a DOI is a clear 400 and publishing mints none", async () => {
    const draft = await createDraft(off);
    const res = await off.call("POST", `/api/records/${draft.id}/draft/pids/doi`, { as: "alice" });
    expect(res.json).toEqual({ status: 400, message: "DOIs are not configured on this repository: set DATACITE_PREFIX to mint them." });
    const record = (await off.call("POST", `/api/records/${draft.id}/draft/actions/publish`, { as: "alice" })).json;
    expect(record.pids).toEqual({});
    expect(record.links.doi).toBeUndefined();
  });
});

describe("with a prefix", () => {
  test("reserve, reserve again (400), discard, discard again (404)", async () => {
    const draft = await createDraft(on);
    const reserved = await on.call("POST", `/api/records/${draft.id}/draft/pids/doi`, { as: "alice" });
    expect(reserved.status).toBe(201);
    expect(reserved.json.pids.doi).toEqual({ identifier: `${PREFIX}/${draft.id}`, provider: "datacite", client: "datacite" });
    expect(reserved.json.links.doi).toBe(`https://doi.org/${PREFIX}/${draft.id}`);
    const again = await on.call("POST", `/api/records/${draft.id}/draft/pids/doi`, { as: "alice" });
    expect(again.status).toBe(400);
    expect(again.json.message).toBe("A validation error occurred.");
    expect(again.json.errors).toEqual([{ field: "pids.doi", messages: ["A PID of type doi already exists for this record."] }]);
    expect((await on.call("DELETE", `/api/records/${draft.id}/draft/pids/doi`, { as: "bob" })).status).toBe(403);
    expect((await on.call("DELETE", `/api/records/${draft.id}/draft/pids/doi`, { as: "alice" })).status).toBe(204);
    const gone = await on.call("DELETE", `/api/records/${draft.id}/draft/pids/doi`, { as: "alice" });
    expect(gone.json).toEqual({ status: 404, message: "The persistent identifier does not exist." });
    expect((await on.call("GET", `/api/records/${draft.id}/draft`, { as: "alice" })).json.pids).toEqual({});
  });

  test("a round trip of the draft keeps the reserved DOI", async () => {
    const draft = await createDraft(on);
    const reserved = (await on.call("POST", `/api/records/${draft.id}/draft/pids/doi`, { as: "alice" })).json;
    const put = await on.call("PUT", `/api/records/${draft.id}/draft`, { as: "alice", body: { ...publishableDraft(), pids: {} } });
    expect(put.json.pids.doi).toEqual(reserved.pids.doi);
  });

  test("publishing mints the DOI and the parent's concept DOI; publisher is then required", async () => {
    const noPublisher = await createDraft(on, { ...publishableDraft(), metadata: { ...publishableDraft().metadata, publisher: undefined } });
    const refused = await on.call("POST", `/api/records/${noPublisher.id}/draft/actions/publish`, { as: "alice" });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toContainEqual({ field: "metadata.publisher", messages: ["Missing publisher field required for DOI registration."] });
    const draft = await createDraft(on);
    const record = (await on.call("POST", `/api/records/${draft.id}/draft/actions/publish`, { as: "alice" })).json;
    expect(record.pids.doi).toEqual({ identifier: `${PREFIX}/${draft.id}`, provider: "datacite", client: "datacite" });
    expect(record.parent.pids.doi).toEqual({ identifier: `${PREFIX}/${draft.parent.id}`, provider: "datacite", client: "datacite" });
    expect(record.links.doi).toBe(`https://doi.org/${PREFIX}/${draft.id}`);
    expect(record.links.parent_doi).toBe(`https://doi.org/${PREFIX}/${draft.parent.id}`);
  });

  test("external DOIs: validated, normalised, never under our prefix, removed by updating the draft", async () => {
    const own = await createDraft(on, publishableDraft({ pids: { doi: { identifier: `${PREFIX}/mine`, provider: "external" } } }));
    expect(own.errors).toContainEqual({ field: "pids.doi", messages: [`The prefix ${PREFIX} is managed by this repository: reserve a DOI instead of supplying one.`] });
    // Saved as sent (a lenient save), and refused on publishing.
    expect(own.pids.doi).toEqual({ identifier: `${PREFIX}/mine`, provider: "external" });
    const refused = await on.call("POST", `/api/records/${own.id}/draft/actions/publish`, { as: "alice" });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toContainEqual({ field: "pids.doi", messages: [`The prefix ${PREFIX} is managed by this repository: reserve a DOI instead of supplying one.`] });
    expect((await on.call("GET", `/api/records/${own.id}`)).status).toBe(404);
    const bad = await createDraft(on, publishableDraft({ pids: { doi: { identifier: "not a doi", provider: "external" } } }));
    expect(bad.errors).toContainEqual({ field: "pids.doi.identifier", messages: ["Not a valid DOI."] });
    const ext = await createDraft(on, publishableDraft({ pids: { doi: { identifier: "https://doi.org/10.5555/ABC.123", provider: "external" } } }));
    expect(ext.pids.doi).toEqual({ identifier: "10.5555/abc.123", provider: "external" });
    const discard = await on.call("DELETE", `/api/records/${ext.id}/draft/pids/doi`, { as: "alice" });
    expect(discard.status).toBe(400);
    const cleared = await on.call("PUT", `/api/records/${ext.id}/draft`, { as: "alice", body: publishableDraft() });
    expect(cleared.json.pids).toEqual({});
    const record = (
      await on.call("PUT", `/api/records/${ext.id}/draft`, { as: "alice", body: publishableDraft({ pids: { doi: { identifier: "10.5555/abc.123", provider: "external" } } }) })
    ).json;
    const published = (await on.call("POST", `/api/records/${record.id}/draft/actions/publish`, { as: "alice" })).json;
    expect(published.pids.doi).toEqual({ identifier: "10.5555/abc.123", provider: "external" });
    expect(published.parent.pids).toEqual({});
  });
});

describe("registration with DataCite", () => {
  test("after publish a job registers the DOI and the concept DOI; a failure is retried", async () => {
    const fake = await startFakeDatacite({ username: "REPO.CAIRN", password: "secret" });
    const app = await createTestApp({ DATACITE_PREFIX: PREFIX, DATACITE_ENABLED: true, DATACITE_USERNAME: "REPO.CAIRN", DATACITE_PASSWORD: "secret", DATACITE_URL: fake.url });
    try {
      const draft = (await app.call("POST", "/api/records", { as: "alice", body: publishableDraft() })).json;
      fake.failNext(1);
      expect((await app.call("POST", `/api/records/${draft.id}/draft/actions/publish`, { as: "alice" })).status).toBe(202);
      await app.services.worker.drain();
      const registration = async () => (await app.services.jobs.listJobs(systemActor)).find((j) => j.name === "datacite-register");
      expect(await registration()).toMatchObject({ status: "queued", attempts: 1 });
      app.clock.advance(3_600_000);
      await app.services.worker.drain();
      expect(await registration()).toMatchObject({ status: "succeeded" });
      const doi = `${PREFIX}/${draft.id}`.toLowerCase();
      expect(fake.dois.get(doi)?.state).toBe("findable");
    } finally {
      await app.close();
      await fake.stop();
    }
  });

  test("deleting a record hides its DOI (it still resolves, to the tombstone); restoring makes it findable again", async () => {
    const fake = await startFakeDatacite({ username: "REPO.CAIRN", password: "secret" });
    const app = await createTestApp({ DATACITE_PREFIX: PREFIX, DATACITE_ENABLED: true, DATACITE_USERNAME: "REPO.CAIRN", DATACITE_PASSWORD: "secret", DATACITE_URL: fake.url });
    try {
      const draft = (await app.call("POST", "/api/records", { as: "alice", body: publishableDraft() })).json;
      expect((await app.call("POST", `/api/records/${draft.id}/draft/actions/publish`, { as: "alice" })).status).toBe(202);
      await app.services.worker.drain();
      const doi = `${PREFIX}/${draft.id}`.toLowerCase();
      expect(fake.dois.get(doi)?.state).toBe("findable");
      const removal = { removal_reason: { id: "retracted" }, note: "Withdrawn by the authors." };
      expect((await app.call("DELETE", `/api/records/${draft.id}/delete`, { as: "admin", body: removal })).status).toBe(204);
      await app.services.worker.drain();
      expect(fake.dois.get(doi)?.state).toBe("registered");
      expect((await app.call("POST", `/api/records/${draft.id}/restore`, { as: "admin" })).status).toBe(200);
      await app.services.worker.drain();
      expect(fake.dois.get(doi)?.state).toBe("findable");
    } finally {
      await app.close();
      await fake.stop();
    }
  });
});
