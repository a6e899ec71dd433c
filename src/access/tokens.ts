// Secret-link tokens: a random part and the server's signature of it. The signature turns away
// made-up tokens before any lookup; the database keeps only a hash of the whole token, so a copy
// of the database opens nothing.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { hashSecret } from "../core/ids";

const signatureOf = (key: string, random: string) => createHmac("sha256", key).update(random).digest("base64url");

export interface LinkTokens {
  /** A new token and the hash to store. */
  issue(): Promise<{ token: string; hash: string }>;
  /** The hash to look the token up by, or null when its signature is not the server's. */
  hashOf(token: string): Promise<string | null>;
}

/** `key`: the server's signing key (read from the database, made on first use). */
export function createLinkTokens(key: () => Promise<string>): LinkTokens {
  return {
    async issue() {
      const random = randomBytes(24).toString("base64url");
      const token = `${random}.${signatureOf(await key(), random)}`;
      return { token, hash: hashSecret(token) };
    },
    async hashOf(token) {
      const [random, signature, extra] = token.split(".");
      if (!random || !signature || extra !== undefined) return null;
      const expected = Buffer.from(signatureOf(await key(), random));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      return hashSecret(token);
    },
  };
}
