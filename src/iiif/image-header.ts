// Width and height of a stored image read from its header (PNG, JPEG, GIF, TIFF, WebP, BMP), by
// random access to the few bytes each format needs, so a large image is never read whole.

export interface ImageSize {
  width: number;
  height: number;
}

/** Reads up to `length` bytes at `offset` (fewer at the end of the file). */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;

/**
 * How far into a file the JPEG walk and TIFF directories may reach: a SOF marker comes after the
 * APPn segments (EXIF with its thumbnail, ICC profiles: tens to hundreds of KiB), and a TIFF
 * directory may sit after the pixels. Beyond it the image is treated as unreadable.
 */
export const MAX_HEADER_REACH = 16 * 1024 * 1024;
/** JPEG segment headers read at a time: most segments are skipped by their length without reading them. */
const JPEG_STEP = 4;
/** Formats whose first bytes tell them apart and hold the size (WebP's VP8X and VP8L fit in 30). */
const HEAD_BYTES = 32;

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;
const u32le = (b: Uint8Array, i: number) => b[i]! + (b[i + 1]! << 8) + (b[i + 2]! << 16) + ((b[i + 3]! << 24) >>> 0);
const ascii = (b: Uint8Array, start: number, end: number) => String.fromCharCode(...b.subarray(start, end));
const sized = (width: number, height: number): ImageSize | null => (width > 0 && height > 0 ? { width, height } : null);

/** The image's size, or null when the bytes are not one of the formats read here or the header is damaged. */
export async function readImageSize(readAt: ReadAt): Promise<ImageSize | null> {
  const head = await readAt(0, HEAD_BYTES);
  if (head.length < 10) return null;
  // PNG: signature, then the IHDR chunk (its width and height at bytes 16 and 20).
  if (u32be(head, 0) === 0x89504e47 && u32be(head, 4) === 0x0d0a1a0a) {
    return head.length >= 24 && ascii(head, 12, 16) === "IHDR" ? sized(u32be(head, 16), u32be(head, 20)) : null;
  }
  // GIF87a / GIF89a: the logical screen's width and height.
  if (ascii(head, 0, 4) === "GIF8") return sized(u16le(head, 6), u16le(head, 8));
  // BMP: BITMAPINFOHEADER (a negative height is a top-down bitmap), or the old BITMAPCOREHEADER.
  if (head[0] === 0x42 && head[1] === 0x4d && head.length >= 26) {
    if (u32le(head, 14) === 12) return sized(u16le(head, 18), u16le(head, 20));
    return sized(u32le(head, 18) | 0, Math.abs(u32le(head, 22) | 0));
  }
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return webpSize(head);
  if (head[0] === 0xff && head[1] === 0xd8) return jpegSize(readAt);
  if ((head[0] === 0x49 && head[1] === 0x49 && u16le(head, 2) === 42) || (head[0] === 0x4d && head[1] === 0x4d && u16be(head, 2) === 42)) {
    return tiffSize(readAt, head[0] === 0x49);
  }
  return null;
}

/** WebP: lossy (VP8), lossless (VP8L) or extended (VP8X) bitstream headers. */
function webpSize(b: Uint8Array): ImageSize | null {
  const chunk = ascii(b, 12, 16);
  if (chunk === "VP8X" && b.length >= 30) return sized(u24le(b, 24) + 1, u24le(b, 27) + 1);
  // A key frame's start code 9d 01 2a, then 14-bit width and height.
  if (chunk === "VP8 " && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) return sized(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  if (chunk === "VP8L" && b.length >= 25 && b[20] === 0x2f) {
    const bits = u32le(b, 21);
    return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  return null;
}

/** Start-of-frame markers (baseline, progressive, lossless...): C0-CF except DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** JPEG: walks the segments from their lengths, reading only each marker and the SOF's size fields. */
async function jpegSize(readAt: ReadAt): Promise<ImageSize | null> {
  let offset = 2;
  while (offset < MAX_HEADER_REACH) {
    const seg = await readAt(offset, JPEG_STEP);
    if (seg.length < JPEG_STEP || seg[0] !== 0xff) return null;
    const marker = seg[1]!;
    // Fill bytes (FF FF...) and standalone markers carry no length.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    // End of image or start of scan before any frame header: no size to find.
    if (marker === 0xd9 || marker === 0xda) return null;
    const length = u16be(seg, 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      // Length (2), precision (1), height (2), width (2).
      const sof = await readAt(offset + 4, 5);
      return sof.length < 5 ? null : sized(u16be(sof, 3), u16be(sof, 1));
    }
    offset += 2 + length;
  }
  return null;
}

const TIFF_WIDTH = 256;
const TIFF_HEIGHT = 257;
const TIFF_SHORT = 3;
const TIFF_LONG = 4;

/** TIFF: the first image file directory's ImageWidth and ImageLength entries, wherever it is. */
async function tiffSize(readAt: ReadAt, little: boolean): Promise<ImageSize | null> {
  const u16 = little ? u16le : u16be;
  const u32 = little ? u32le : u32be;
  const header = await readAt(0, 8);
  if (header.length < 8) return null;
  const ifd = u32(header, 4);
  if (ifd < 8 || ifd > MAX_HEADER_REACH) return null;
  const countBytes = await readAt(ifd, 2);
  if (countBytes.length < 2) return null;
  const count = u16(countBytes, 0);
  const entries = await readAt(ifd + 2, count * 12);
  let width = 0;
  let height = 0;
  for (let i = 0; i + 12 <= entries.length; i += 12) {
    const tag = u16(entries, i);
    if (tag !== TIFF_WIDTH && tag !== TIFF_HEIGHT) continue;
    const type = u16(entries, i + 2);
    // The value sits in the entry itself (left-justified): a SHORT in its first two bytes.
    const value = type === TIFF_SHORT ? u16(entries, i + 8) : type === TIFF_LONG ? u32(entries, i + 8) : 0;
    if (tag === TIFF_WIDTH) width = value;
    else height = value;
  }
  return sized(width, height);
}
