// Identifier schemes named like Object.prototype's members (`toString`, `constructor`) are
// unknown schemes, not the inherited functions: refused with the field named, never stored.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, expectStatus, type TestApp } from "../helpers/app";
import { publishableDraft } from "../helpers/records";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

for (const scheme of ["toString", "constructor", "valueOf", "hasOwnProperty"]) {
  test(`a related identifier with scheme '${scheme}' is an error naming it, and the draft does not publish`, async () => {
    const base = publishableDraft();
    const body = { ...base, metadata: { ...base.metadata, related_identifiers: [{ identifier: "10.1234/x", scheme, relation_type: { id: "issupplementto" } }] } };
    // A draft keeps what it was sent and lists the errors; publishing refuses them.
    const draft = await t.call("POST", "/api/records", { as: "alice", body });
    expectStatus(draft, 201);
    expect(draft.json.errors).toContainEqual({ field: "metadata.related_identifiers.0.scheme", messages: ["Missing or invalid scheme for identifier 10.1234/x."] });
    const published = await t.call("POST", `/api/records/${draft.json.id}/draft/actions/publish`, { as: "alice" });
    expectStatus(published, 400);
    expect(published.json.errors.map((e: { field: string }) => e.field)).toContain("metadata.related_identifiers.0.scheme");
  });
}

test("the scheme tables answer only their own entries", async () => {
  const { isValidIdentifier } = await import("../../src/records/metadata/identifiers");
  const { identifierUrl } = await import("../../src/pages/record/links");
  for (const name of ["toString", "constructor", "valueOf", "__proto__"]) {
    expect(isValidIdentifier(name, "10.1234/x")).toBe(false);
    expect(identifierUrl(name, "10.1234/x")).toBeNull();
  }
  expect(isValidIdentifier("doi", "10.1234/x")).toBe(true);
  expect(identifierUrl("doi", "10.1234/x")).toBe("https://doi.org/10.1234/x");
});
