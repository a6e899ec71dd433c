// Takes one member out of a zip archive on disk (the ROR release is a zip holding its JSON dumps):
// the central directory says where the member is, its bytes stream through inflate to a file.
import { createReadStream, createWriteStream } from "node:fs";
import { open, rename } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { createInflateRaw } from "node:zlib";

export interface ZipMember {
  name: string;
  /** 0 stored, 8 deflated (the only two a ROR release uses, and all that is read here). */
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX32 = 0xffffffff;

async function readAt(path: string, position: number, length: number): Promise<Buffer> {
  const fh = await open(path, "r");
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, position);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Where the central directory is and how many entries it has (zip64 when the classic fields overflow). */
async function centralDirectory(path: string, size: number): Promise<{ offset: number; length: number }> {
  // The end record is 22 bytes plus a comment of at most 65,535.
  const tailStart = Math.max(0, size - 22 - 65_535);
  const tail = await readAt(path, tailStart, size - tailStart);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new Error("not a zip archive (no end of central directory)");
  let offset = tail.readUInt32LE(at + 16);
  let length = tail.readUInt32LE(at + 12);
  if ((offset === MAX32 || length === MAX32) && at >= 20 && tail.readUInt32LE(at - 20) === ZIP64_LOCATOR) {
    const record = await readAt(path, Number(tail.readBigUInt64LE(at - 20 + 8)), 56);
    if (record.readUInt32LE(0) !== ZIP64_EOCD) throw new Error("damaged zip64 end of central directory");
    length = Number(record.readBigUInt64LE(40));
    offset = Number(record.readBigUInt64LE(48));
  }
  if (offset + length > size) throw new Error("truncated zip archive (its central directory lies past the end of the file)");
  return { offset, length };
}

/** The zip64 extra field's values replace the classic fields that read 0xFFFFFFFF, in this order. */
function applyZip64(extra: Buffer, member: ZipMember): void {
  for (let i = 0; i + 4 <= extra.length;) {
    const id = extra.readUInt16LE(i);
    const len = extra.readUInt16LE(i + 2);
    if (id === 0x0001) {
      let p = i + 4;
      const next = () => {
        const v = Number(extra.readBigUInt64LE(p));
        p += 8;
        return v;
      };
      if (member.size === MAX32) member.size = next();
      if (member.compressedSize === MAX32) member.compressedSize = next();
      if (member.localHeaderOffset === MAX32) member.localHeaderOffset = next();
      return;
    }
    i += 4 + len;
  }
}

/** The archive's members, from its central directory. */
export async function listZip(path: string): Promise<ZipMember[]> {
  const fh = await open(path, "r");
  const size = (await fh.stat()).size;
  await fh.close();
  const { offset, length } = await centralDirectory(path, size);
  const dir = await readAt(path, offset, length);
  const members: ZipMember[] = [];
  for (let i = 0; i + 46 <= dir.length && dir.readUInt32LE(i) === CENTRAL;) {
    const nameLength = dir.readUInt16LE(i + 28);
    const extraLength = dir.readUInt16LE(i + 30);
    const commentLength = dir.readUInt16LE(i + 32);
    const member: ZipMember = {
      name: dir.toString("utf8", i + 46, i + 46 + nameLength),
      method: dir.readUInt16LE(i + 10),
      compressedSize: dir.readUInt32LE(i + 20),
      size: dir.readUInt32LE(i + 24),
      localHeaderOffset: dir.readUInt32LE(i + 42),
    };
    applyZip64(dir.subarray(i + 46 + nameLength, i + 46 + nameLength + extraLength), member);
    members.push(member);
    i += 46 + nameLength + extraLength + commentLength;
  }
  return members;
}

/** Writes one member's content to `dest` (through `dest.part`, renamed once complete). */
export async function extractZipMember(path: string, member: ZipMember, dest: string, signal?: AbortSignal): Promise<void> {
  if (member.method !== 0 && member.method !== 8) throw new Error(`${member.name} is compressed with method ${member.method}; only stored and deflated members are read`);
  const local = await readAt(path, member.localHeaderOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL) throw new Error(`damaged zip archive (no local header for ${member.name})`);
  const start = member.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const part = `${dest}.part`;
  const source = createReadStream(path, { start, end: start + member.compressedSize - 1, highWaterMark: 256 * 1024 });
  const steps = member.method === 8 ? [source, createInflateRaw(), createWriteStream(part)] : [source, createWriteStream(part)];
  await (pipeline as (...streams: unknown[]) => Promise<void>)(...steps, { signal });
  await rename(part, dest);
}
