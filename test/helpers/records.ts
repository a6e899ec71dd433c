// Draft bodies for record tests: what InvenioRDM clients send.
export const MINIMAL_METADATA = {
  resource_type: { id: "dataset" },
  title: "Sea surface temperature 2020-2024",
  publication_date: "2026-11-01",
  creators: [{ person_or_org: { type: "personal", given_name: "Ada", family_name: "Lovelace" } }],
};

/** A draft that publishes as it is (metadata-only: files arrive with the files module). */
export const publishableDraft = (overrides: Record<string, unknown> = {}) => ({
  access: { record: "public", files: "public" },
  files: { enabled: false },
  metadata: { ...MINIMAL_METADATA, publisher: "Cairn test repository" },
  ...overrides,
});
