// Draft bodies for record tests (what InvenioRDM clients send), and the API calls that turn them
// into drafts and published records, each step checked.
import { expectStatus, type Caller, type Who } from "./app";
import { uploadFile } from "./files";

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

/** A JSON body as TestApp.call parses it. */
type Json = any;

/** Who calls (default alice; a community role with helpers/communities.ts), and the files to upload into the draft as [key, content] pairs. */
export interface DraftOptions<As extends string = Who> {
  as?: As;
  files?: [key: string, content: string][];
}

/** POST /api/records (201), then uploads `files` into the draft; returns the draft as created. */
export async function createDraft<As extends string = Who>(
  app: Caller<As>,
  body: unknown = publishableDraft(),
  { as = "alice" as As, files = [] }: DraftOptions<As> = {},
): Promise<Json> {
  const res = await app.call("POST", "/api/records", { as, body });
  expectStatus(res, 201);
  for (const [key, content] of files) await uploadFile(app, res.json.id, key, content, { as });
  return res.json;
}

/** A publishable draft with files enabled (and none uploaded yet); returns its id. */
export async function draftWithFiles<As extends string = Who>(app: Caller<As>, options: { as?: As } = {}): Promise<string> {
  return (await createDraft(app, publishableDraft({ files: { enabled: true } }), options)).id;
}

/** Publishes draft `id` (202); returns the published record. */
export async function publishDraft<As extends string = Who>(app: Caller<As>, id: string, { as = "alice" as As }: { as?: As } = {}): Promise<Json> {
  const res = await app.call("POST", `/api/records/${id}/draft/actions/publish`, { as });
  expectStatus(res, 202);
  return res.json;
}

/** Creates a draft from `body` (with `files`) and publishes it, both as the same user; returns the published record. */
export async function publishRecord<As extends string = Who>(app: Caller<As>, body: unknown = publishableDraft(), options: DraftOptions<As> = {}): Promise<Json> {
  const draft = await createDraft(app, body, options);
  return publishDraft(app, draft.id, { as: options.as });
}
