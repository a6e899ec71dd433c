// IIIF Presentation 2.1 resources of records (`self_iiif_manifest`, `self_iiif_sequence`): a canvas
// per image file with the size read from its header, the record's visibility, JSON-LD, HEAD.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BASE_URL, createTestApp, expectStatus, type TestApp, type Who } from "../helpers/app";
import { octet } from "../helpers/files";
import { gif, jpeg, png } from "../helpers/images";
import { createDraft, publishableDraft, publishDraft } from "../helpers/records";

let ctx: TestApp;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const API = `${BASE_URL}/api`;
const path = (link: string) => link.slice(BASE_URL.length);

/** Uploads binary files into draft `id` as alice. */
async function upload(id: string, files: [string, Uint8Array | string][]) {
  for (const [key, content] of files) {
    const base = `/api/records/${id}/draft/files`;
    expectStatus(await ctx.call("POST", base, { as: "alice", body: [{ key }] }), 201);
    expectStatus(await ctx.call("PUT", `${base}/${key}/content`, { as: "alice", rawBody: content, headers: octet }), 200);
    expectStatus(await ctx.call("POST", `${base}/${key}/commit`, { as: "alice" }), 200);
  }
}

/** A draft of alice's with these files and access; returns its id. */
async function draftWith(files: [string, Uint8Array | string][], access = { record: "public", files: "public" }, metadata: Record<string, unknown> = {}) {
  const body = publishableDraft({ access, files: { enabled: files.length > 0 } });
  const draft = await createDraft(ctx, { ...body, metadata: { ...body.metadata, ...metadata } });
  await upload(draft.id, files);
  return draft.id as string;
}

async function recordWith(...args: Parameters<typeof draftWith>) {
  return publishDraft(ctx, await draftWith(...args));
}

const IMAGES: [string, Uint8Array | string][] = [
  ["photo.png", png(640, 480)],
  ["data.csv", "a,b\n1,2\n"],
  ["scans/page 1.jpg", jpeg(1024, 768, { app1Bytes: 70_000 })],
  ["anim.gif", gif(30, 20)],
];

const canvasOf = (uuid: string, key: string, encodedKey: string, format: string, width: number, height: number, recordPath: string) => ({
  "@id": `${API}/iiif/${uuid}/canvas/${encodedKey}`,
  "@type": "sc:Canvas",
  label: key,
  width,
  height,
  images: [
    {
      "@type": "oa:Annotation",
      motivation: "sc:painting",
      resource: { "@id": `${API}${recordPath}/files/${encodedKey}/content`, "@type": "dctypes:Image", format, width, height },
      on: `${API}/iiif/${uuid}/canvas/${encodedKey}`,
    },
  ],
});

describe("the manifest and the sequence", () => {
  test("a canvas per image file, in the record's file order, sized from the headers", async () => {
    const record = await recordWith(IMAGES, undefined, { description: "<p>Scans of the logbook.</p>", rights: [{ id: "cc-by-4.0" }] });
    const id = record.id;
    const uuid = `record:${id}`;
    expect(record.links.self_iiif_manifest).toBe(`${API}/iiif/${uuid}/manifest`);
    expect(record.links.self_iiif_sequence).toBe(`${API}/iiif/${uuid}/sequence/default`);
    const canvases = [
      canvasOf(uuid, "photo.png", "photo.png", "image/png", 640, 480, `/records/${id}`),
      canvasOf(uuid, "scans/page 1.jpg", "scans/page%201.jpg", "image/jpeg", 1024, 768, `/records/${id}`),
      canvasOf(uuid, "anim.gif", "anim.gif", "image/gif", 30, 20, `/records/${id}`),
    ];
    const sequence = {
      "@id": record.links.self_iiif_sequence,
      "@type": "sc:Sequence",
      label: "Current Page Order",
      viewingDirection: "left-to-right",
      viewingHint: "paged",
      canvases,
    };
    const manifest = await ctx.call("GET", path(record.links.self_iiif_manifest));
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get("content-type")).toBe("application/ld+json");
    expect(manifest.json).toEqual({
      "@context": "http://iiif.io/api/presentation/2/context.json",
      "@id": record.links.self_iiif_manifest,
      "@type": "sc:Manifest",
      label: "Sea surface temperature 2020-2024",
      metadata: [{ label: "Publication Date", value: "2026-11-01" }],
      description: "<p>Scans of the logbook.</p>",
      license: "https://creativecommons.org/licenses/by/4.0/legalcode",
      sequences: [sequence],
    });
    const alone = await ctx.call("GET", path(record.links.self_iiif_sequence));
    expect(alone.status).toBe(200);
    expect(alone.json).toEqual({ "@context": "http://iiif.io/api/presentation/2/context.json", ...sequence });
    // Each canvas's @id answers with the canvas, and each image's @id with the image's bytes.
    const canvas = await ctx.call("GET", path(canvases[1]!["@id"]));
    expect(canvas.json).toEqual({ "@context": "http://iiif.io/api/presentation/2/context.json", ...canvases[1] });
    const bytes = await ctx.app.handle(new Request(canvases[0]!.images[0]!.resource["@id"]));
    expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(png(640, 480));
  });

  test("a record without image files has a sequence with no canvases", async () => {
    const record = await recordWith([]);
    const manifest = await ctx.call("GET", path(record.links.self_iiif_manifest));
    expect(manifest.status).toBe(200);
    expect(manifest.json.sequences[0].canvases).toEqual([]);
    expect(manifest.json.description).toBe("Manifest generated by Cairn");
    expect((await ctx.call("GET", path(record.links.self_iiif_sequence))).json.canvases).toEqual([]);
  });

  test("an image file whose header cannot be read gets no canvas", async () => {
    const record = await recordWith([
      ["broken.png", "not a png at all"],
      ["ok.png", png(2, 3)],
    ]);
    const canvases = (await ctx.call("GET", path(record.links.self_iiif_manifest))).json.sequences[0].canvases;
    expect(canvases.map((c: { label: string; width: number; height: number }) => [c.label, c.width, c.height])).toEqual([["ok.png", 2, 3]]);
  });

  test("HEAD answers as GET without a body; Accept chooses JSON-LD or JSON", async () => {
    const record = await recordWith([["photo.png", png(4, 4)]]);
    const url = BASE_URL + path(record.links.self_iiif_manifest);
    const head = await ctx.app.handle(new Request(url, { method: "HEAD" }));
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("application/ld+json");
    expect(await head.text()).toBe("");
    const headSequence = await ctx.app.handle(new Request(BASE_URL + path(record.links.self_iiif_sequence), { method: "HEAD" }));
    expect(headSequence.status).toBe(200);
    const asJson = await ctx.call("GET", path(record.links.self_iiif_manifest), { headers: { accept: "application/json" } });
    expect(asJson.headers.get("content-type")).toBe("application/json");
    expect(asJson.json["@type"]).toBe("sc:Manifest");
    const html = await ctx.call("GET", path(record.links.self_iiif_manifest), { headers: { accept: "text/html" } });
    expect(html.status).toBe(406);
  });
});

describe("who sees what", () => {
  test.each([
    ["alice", 200],
    ["admin", 200],
    ["bob", 403],
    ["anonymous", 401],
  ] as const)("a restricted record, as %s: %d, as GET /api/records/{id} answers", async (who: Who, status) => {
    const record = await recordWith([["photo.png", png(8, 6)]], { record: "restricted", files: "restricted" });
    const recordStatus = (await ctx.call("GET", `/api/records/${record.id}`, { as: who })).status;
    expect(recordStatus).toBe(status);
    for (const link of [record.links.self_iiif_manifest, record.links.self_iiif_sequence]) {
      expect((await ctx.call("GET", path(link), { as: who })).status).toBe(status);
    }
    if (status === 200) expect((await ctx.call("GET", path(record.links.self_iiif_manifest), { as: who })).json.sequences[0].canvases).toHaveLength(1);
  });

  test("restricted files: no canvases for callers who may not read the files", async () => {
    const record = await recordWith([["photo.png", png(8, 6)]], { record: "public", files: "restricted" });
    const canvases = async (who: Who) => (await ctx.call("GET", path(record.links.self_iiif_manifest), { as: who })).json.sequences[0].canvases.length;
    expect(await canvases("anonymous")).toBe(0);
    expect(await canvases("bob")).toBe(0);
    expect(await canvases("alice")).toBe(1);
    const canvasUrl = `/api/iiif/record:${record.id}/canvas/photo.png`;
    expect((await ctx.call("GET", canvasUrl, { as: "bob" })).status).toBe(404);
    expect((await ctx.call("GET", canvasUrl, { as: "alice" })).status).toBe(200);
  });

  test("a draft's resources (draft:{id}) for who may preview it, with the draft's file URLs", async () => {
    const id = await draftWith([["photo.png", png(5, 7)]]);
    const manifest = await ctx.call("GET", `/api/iiif/draft:${id}/manifest`, { as: "alice" });
    expect(manifest.status).toBe(200);
    expect(manifest.json.sequences[0].canvases[0]).toEqual(canvasOf(`draft:${id}`, "photo.png", "photo.png", "image/png", 5, 7, `/records/${id}/draft`));
    expect((await ctx.call("GET", `/api/iiif/draft:${id}/manifest`, { as: "bob" })).status).toBe(403);
    // An unpublished draft has no record resources.
    expect((await ctx.call("GET", `/api/iiif/record:${id}/manifest`, { as: "alice" })).status).toBe(404);
  });

  test.each([["/api/iiif/record:aaaaa-aaa00/manifest"], ["/api/iiif/nonsense/manifest"], ["/api/iiif/file:x/sequence/default"]])("%s is a 404", async (url) => {
    expect((await ctx.call("GET", url, { as: "alice" })).status).toBe(404);
  });

  test("a parent id is not a record's IIIF identifier", async () => {
    const record = await recordWith([]);
    expect((await ctx.call("GET", `/api/iiif/record:${record.parent.id}/manifest`, { as: "alice" })).status).toBe(404);
  });
});
