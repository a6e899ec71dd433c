// Community logos: raw bytes streamed to the file store, the image type sniffed from the bytes
// (PNG, JPEG, GIF, WebP, SVG), the size limit, reads with the sniffed type, removal, permissions.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createCommunitiesTestApp, roleScenarios, type CommunitiesTestApp, type Role, type RoleScenario } from "../helpers/communities";

let ctx: CommunitiesTestApp;
const app = () => ctx;

const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)));
const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "rest of a png");
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0], "JFIF");
const GIF87 = bytes("GIF87a", [1, 0, 1, 0]);
const GIF89 = bytes("GIF89a", [1, 0, 1, 0]);
const WEBP = bytes("RIFF", [0x24, 0, 0, 0], "WEBPVP8 ");
const SVG = bytes('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
const SVG_PROLOG = bytes(
  [0xef, 0xbb, 0xbf],
  '<?xml version="1.0"?>\n<!-- a logo -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="http://www.w3.org/2000/svg"></svg>',
);

const octets = { "content-type": "application/octet-stream" };
const put = (name: string, url: string, body: Uint8Array | string, status: number, extra: Partial<RoleScenario> = {}): RoleScenario => ({
  name,
  method: "PUT",
  url,
  as: "owner",
  rawBody: body,
  headers: octets,
  status,
  ...extra,
});
const notAnImage = (name: string, body: Uint8Array | string) =>
  put(name, "/api/communities/pub/logo", body, 400, { json: { message: "The logo must be a PNG, JPEG, GIF, WebP or SVG image." } });

beforeAll(async () => {
  ctx = await createCommunitiesTestApp();
  await ctx.makeCommunity("pub");
  await ctx.makeCommunity("res", { visibility: "restricted" });
  await ctx.makeCommunity("bare");
  await ctx.makeCommunity("bare-2");
});
afterAll(() => ctx.close());

const EVERYONE: Role[] = ["anonymous", "alice", "reader", "grouped", "curator", "manager", "owner", "admin"];
const ownerOnly = (restricted: boolean) => (who: Role) => (who === "owner" || who === "admin" ? 200 : who === "anonymous" ? 401 : restricted && who === "alice" ? 404 : 403);

describe("who may upload", () => {
  roleScenarios(app, [
    ...EVERYONE.map((who) => put("public", "/api/communities/pub/logo", PNG, ownerOnly(false)(who), { as: who })),
    ...EVERYONE.map((who) => put("restricted", "/api/communities/res/logo", PNG, ownerOnly(true)(who), { as: who })),
    put("unknown community", "/api/communities/nothing/logo", PNG, 404),
  ]);
});

describe("the file entry and the bytes back", () => {
  for (const [name, body, type] of [
    ["PNG", PNG, "image/png"],
    ["JPEG", JPEG, "image/jpeg"],
    ["GIF87a", GIF87, "image/gif"],
    ["GIF89a", GIF89, "image/gif"],
    ["WebP", WEBP, "image/webp"],
    ["SVG", SVG, "image/svg+xml"],
    ["SVG with a BOM, declaration, comment and doctype", SVG_PROLOG, "image/svg+xml"],
  ] as const) {
    test(name, async () => {
      const res = await ctx.call("PUT", "/api/communities/pub/logo", { as: "owner", rawBody: body, headers: octets });
      expect(res.status).toBe(200);
      const digest = new Bun.CryptoHasher("md5").update(body).digest("hex");
      expect(res.json).toMatchObject({ key: "logo", status: "completed", mimetype: type, size: body.length, checksum: `md5:${digest}`, storage_class: "L" });
      expect(res.json.links.content).toMatch(/^\/api\/communities\/[0-9a-f-]{36}\/logo$/);
      const read = await ctx.call("GET", "/api/communities/pub/logo", { as: "alice" });
      expect(read.status).toBe(200);
      expect(read.headers.get("content-type")).toBe(type);
      expect(read.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(read.headers.get("content-length")).toBe(String(body.length));
    });
  }

  test("the bytes are returned unchanged, and revalidate by ETag", async () => {
    const content = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 255, 128, 7]);
    expect((await ctx.call("PUT", "/api/communities/pub/logo", { as: "owner", rawBody: content, headers: octets })).status).toBe(200);
    const response = await ctx.app.handle(new Request("http://127.0.0.1:5000/api/communities/pub/logo"));
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(content);
    const etag = response.headers.get("etag")!;
    expect((await ctx.call("GET", "/api/communities/pub/logo", { headers: { "if-none-match": etag } })).status).toBe(304);
  });

  test("a new logo replaces the old one's bytes on disk", async () => {
    const first = (await ctx.call("PUT", "/api/communities/bare/logo", { as: "owner", rawBody: PNG, headers: octets })).json;
    const second = (await ctx.call("PUT", "/api/communities/bare/logo", { as: "owner", rawBody: GIF89, headers: octets })).json;
    const path = (id: string) => join(ctx.dataDir, "files", "objects", id.slice(0, 2), id);
    expect(existsSync(path(first.file_id))).toBe(false);
    expect(existsSync(path(second.file_id))).toBe(true);
    expect((await ctx.call("DELETE", "/api/communities/bare", { as: "owner" })).status).toBe(204);
    expect(existsSync(path(second.file_id))).toBe(false);
  });
});

describe("only images, within the limit", () => {
  const limit = 1_000_000;
  roleScenarios(app, [
    notAnImage("text", "hello, I am a logo"),
    notAnImage("empty", new Uint8Array()),
    notAnImage("a PDF", "%PDF-1.7"),
    notAnImage("a RIFF that is no WebP", bytes("RIFF", [0, 0, 0, 0], "WAVEfmt ")),
    notAnImage("HTML holding an SVG", "<html><body><svg></svg></body></html>"),
    notAnImage("a PNG signature cut short", bytes([0x89, 0x50, 0x4e, 0x47])),
    notAnImage("binary that starts like text", bytes("<svg", [0xff, 0xfe, 0x00])),
    put("exactly the limit", "/api/communities/pub/logo", bytes([0xff, 0xd8, 0xff], new Array(limit - 3).fill(0)), 200),
    put("one byte over, announced", "/api/communities/pub/logo", bytes([0xff, 0xd8, 0xff], new Array(limit - 2).fill(0)), 400, {
      headers: { ...octets, "content-length": String(limit + 1) },
      json: { message: "Logo size limit exceeded. Limit: 1000000 bytes Given: 1000001 bytes." },
    }),
    put("JSON is not a logo", "/api/communities/pub/logo", '{"logo": 1}', 415, { headers: { "content-type": "application/json" } }),
    put("another media type", "/api/communities/pub/logo", PNG, 415, { headers: { "content-type": "image/png" } }),
  ]);

  test("one byte over, streamed without Content-Length", async () => {
    const chunk = new Uint8Array(250_001);
    chunk.set([0xff, 0xd8, 0xff]);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 4; i++) c.enqueue(chunk);
        c.close();
      },
    });
    const res = await ctx.call("PUT", "/api/communities/pub/logo", { as: "owner", rawBody: stream, headers: octets });
    expect(res.status).toBe(400);
    expect(res.json.message).toStartWith("Logo size limit exceeded");
  });
});

describe("read and delete", () => {
  roleScenarios(app, [
    { name: "no logo", method: "GET", url: "/api/communities/bare-2/logo", status: 404 },
    { name: "restricted: others", method: "GET", url: "/api/communities/res/logo", as: "alice", status: 404, json: { message: "The persistent identifier does not exist." } },
    { name: "restricted: a member through a group", method: "GET", url: "/api/communities/res/logo", as: "grouped", status: 200, responseHeaders: { "content-type": "image/png" } },
    ...EVERYONE.filter((w) => w !== "owner" && w !== "admin").map((who): RoleScenario => ({
      name: "delete denied",
      method: "DELETE",
      url: "/api/communities/pub/logo",
      as: who,
      status: who === "anonymous" ? 401 : 403,
    })),
    { name: "delete", method: "DELETE", url: "/api/communities/pub/logo", as: "owner", status: 204 },
    { name: "gone", method: "GET", url: "/api/communities/pub/logo", status: 404, json: { status: 404, message: "No logo exists for this community." } },
    { name: "delete again", method: "DELETE", url: "/api/communities/pub/logo", as: "admin", status: 404, json: { message: "No logo exists for this community." } },
  ]);
});
