// Identifiers: UUIDs and secret tokens.
import { createHash, randomBytes } from "node:crypto";

export const newUuid = (): string => crypto.randomUUID();

/** A secret for bearer tokens: 256 random bits, URL-safe. */
export const newSecret = (): string => randomBytes(32).toString("base64url");

/** Tokens are stored as a SHA-256 digest: they are random, so a slow hash adds nothing. */
export const hashSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex");
