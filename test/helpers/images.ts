// Image headers built byte by byte for the IIIF tests: the smallest files whose headers carry a
// width and height in each format Cairn reads (pixel data is left out or zero).

const bytes = (...parts: (number[] | Uint8Array | string)[]) => {
  const out: number[] = [];
  for (const p of parts) {
    if (typeof p === "string") for (const c of p) out.push(c.charCodeAt(0));
    else for (const b of p) out.push(b);
  }
  return new Uint8Array(out);
};
const be16 = (n: number) => [(n >> 8) & 255, n & 255];
const le16 = (n: number) => [n & 255, (n >> 8) & 255];
const be32 = (n: number) => [(n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255];
const le32 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255];
const le24 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255];

export function png(width: number, height: number) {
  // Signature, IHDR (8-bit RGB), a zero CRC (not checked for a size), IEND.
  return bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], be32(13), "IHDR", be32(width), be32(height), [8, 2, 0, 0, 0], be32(0), be32(0), "IEND", be32(0));
}

export function gif(width: number, height: number) {
  return bytes("GIF89a", le16(width), le16(height), [0, 0, 0], [0x3b]);
}

/**
 * A JPEG whose frame header comes after an APP0 segment and `app1Bytes` of APP1 segments (EXIF
 * data, a thumbnail: each segment at most 65,533 bytes, as its length field allows).
 */
export function jpeg(width: number, height: number, { app1Bytes = 0, progressive = false } = {}) {
  const app0 = bytes([0xff, 0xe0], be16(16), "JFIF\0", [1, 1, 0], be16(1), be16(1), [0, 0]);
  const segments: Uint8Array[] = [];
  for (let left = app1Bytes; left > 0; left -= 65_533) {
    const n = Math.min(left, 65_533);
    segments.push(bytes([0xff, 0xe1], be16(n + 2), new Uint8Array(n)));
  }
  const app1 = bytes(...segments);
  const sof = bytes([0xff, progressive ? 0xc2 : 0xc0], be16(17), [8], be16(height), be16(width), [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return bytes([0xff, 0xd8], app0, app1, sof, [0xff, 0xda], be16(2), [0xff, 0xd9]);
}

/** A TIFF with its image file directory after `pixelBytes` of data (writers put it at the end). */
export function tiff(width: number, height: number, { littleEndian = true, pixelBytes = 0, longs = false } = {}) {
  const u16 = littleEndian ? le16 : be16;
  const u32 = littleEndian ? le32 : be32;
  const entry = (tag: number, value: number) => (longs ? [...u16(tag), ...u16(4), ...u32(1), ...u32(value)] : [...u16(tag), ...u16(3), ...u32(1), ...u16(value), 0, 0]);
  const ifd = 8 + pixelBytes;
  return bytes(littleEndian ? "II" : "MM", u16(42), u32(ifd), new Uint8Array(pixelBytes), u16(3), entry(256, width), entry(257, height), entry(259, 1), u32(0));
}

export function webpLossy(width: number, height: number) {
  return bytes("RIFF", le32(22), "WEBP", "VP8 ", le32(10), [0x10, 0x02, 0x00], [0x9d, 0x01, 0x2a], le16(width), le16(height));
}

export function webpLossless(width: number, height: number) {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  return bytes("RIFF", le32(14), "WEBP", "VP8L", le32(5), [0x2f], le32(bits));
}

export function webpExtended(width: number, height: number) {
  return bytes("RIFF", le32(18), "WEBP", "VP8X", le32(10), [0, 0, 0, 0], le24(width - 1), le24(height - 1));
}

export function bmp(width: number, height: number) {
  return bytes("BM", le32(54), [0, 0, 0, 0], le32(54), le32(40), le32(width), le32(-height), le16(1), le16(24), new Uint8Array(24));
}
