// Record and parent ids as InvenioRDM makes them: 40 random bits in Crockford base32 (8
// characters) and a 2-digit ISO 7064 mod 97-10 checksum, split as `xxxxx-xxxxx`.
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const DECODE: Record<string, number> = Object.fromEntries([...ALPHABET].map((c, i) => [c, i]));
// Crockford: letters easily misread as digits decode as those digits.
Object.assign(DECODE, { i: 1, l: 1, o: 0 });

const checksum = (n: number) => 98 - ((n * 100) % 97);

function encode(n: number): string {
  let out = "";
  for (let i = 0; i < 8; i++) {
    out = ALPHABET[n % 32]! + out;
    n = Math.floor(n / 32);
  }
  return out;
}

export function recordIdFromNumber(n: number): string {
  const raw = encode(n) + String(checksum(n)).padStart(2, "0");
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/** A new random id such as `3sbk2-5j060`. */
export function newRecordId(): string {
  const bytes = randomBytes(5);
  let n = 0;
  for (const b of bytes) n = n * 256 + b;
  return recordIdFromNumber(n);
}

/** True for a well-formed id with a correct checksum (case and hyphens ignored, as InvenioRDM does). */
export function isRecordId(value: string): boolean {
  const raw = value.toLowerCase().replace(/-/g, "");
  if (!/^[0-9a-z]{8}\d{2}$/.test(raw)) return false;
  let n = 0;
  for (const c of raw.slice(0, 8)) {
    const d = DECODE[c];
    if (d === undefined) return false;
    n = n * 32 + d;
  }
  return checksum(n) === Number(raw.slice(8));
}
