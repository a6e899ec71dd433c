// Image sizes from headers built in the test, and how few bytes the reader asks for.
import { describe, expect, test } from "bun:test";
import { readImageSize, type ReadAt } from "../../src/iiif/image-header";
import { bmp, gif, jpeg, png, tiff, webpExtended, webpLossless, webpLossy } from "../helpers/images";

/** A ReadAt over bytes in memory that records what was asked. */
function reader(data: Uint8Array) {
  const reads: { offset: number; length: number }[] = [];
  const readAt: ReadAt = async (offset, length) => {
    reads.push({ offset, length });
    return data.subarray(offset, offset + length);
  };
  return { readAt, reads, bytesRead: () => reads.reduce((n, r) => n + Math.max(0, Math.min(r.length, data.length - r.offset)), 0) };
}

const sizeOf = (data: Uint8Array) => readImageSize(reader(data).readAt);

describe("image sizes from headers", () => {
  test.each([
    ["PNG", png(640, 480), { width: 640, height: 480 }],
    ["GIF", gif(300, 200), { width: 300, height: 200 }],
    ["JPEG baseline", jpeg(1024, 768), { width: 1024, height: 768 }],
    ["JPEG progressive", jpeg(33, 4000, { progressive: true }), { width: 33, height: 4000 }],
    ["TIFF little-endian", tiff(500, 300), { width: 500, height: 300 }],
    ["TIFF big-endian with LONG values", tiff(70000, 2, { littleEndian: false, longs: true }), { width: 70000, height: 2 }],
    ["WebP lossy", webpLossy(320, 240), { width: 320, height: 240 }],
    ["WebP lossless", webpLossless(16383, 1), { width: 16383, height: 1 }],
    ["WebP extended", webpExtended(5000, 3000), { width: 5000, height: 3000 }],
    ["BMP (top-down)", bmp(12, 34), { width: 12, height: 34 }],
  ] as const)("%s", async (_name, data, expected) => {
    expect(await sizeOf(data)).toEqual(expected);
  });

  test.each([
    ["text", new TextEncoder().encode("a,b\n1,2\n3,4\n")],
    ["empty", new Uint8Array(0)],
    ["a PNG cut inside its header", png(10, 10).subarray(0, 20)],
    ["a JPEG cut before its frame header", jpeg(10, 10, { app1Bytes: 100 }).subarray(0, 60)],
    ["a JPEG whose scan starts before any frame header", new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 2, 0xff, 0xd9])],
    ["a TIFF whose directory offset points past the end", tiff(5, 5).subarray(0, 8)],
    ["a zero-width GIF", gif(0, 10)],
  ])("%s has no size", async (_name, data) => {
    expect(await sizeOf(data)).toBeNull();
  });

  test("a JPEG's large EXIF segment is skipped, not read", async () => {
    const data = jpeg(800, 600, { app1Bytes: 200_000 });
    const r = reader(data);
    expect(await readImageSize(r.readAt)).toEqual({ width: 800, height: 600 });
    expect(r.bytesRead()).toBeLessThan(64);
  });

  test("a TIFF's directory after the pixels is read where it is", async () => {
    const data = tiff(4000, 3000, { pixelBytes: 1_000_000 });
    const r = reader(data);
    expect(await readImageSize(r.readAt)).toEqual({ width: 4000, height: 3000 });
    expect(r.bytesRead()).toBeLessThan(100);
    expect(r.reads.some((read) => read.offset === 1_000_008)).toBe(true);
  });
});
