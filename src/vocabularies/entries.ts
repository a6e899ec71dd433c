// Synchronous checks and renderers over vocabulary entries read beforehand: the lookup reads the
// database (asynchronous), the code that asks for entries field by field stays synchronous.
import type { VocabularyEntry, VocabularyLookup } from "./model";

/** Entries read beforehand, answered at once; null or undefined for one that does not exist. */
export type KnownEntries = (type: string, id: string) => VocabularyEntry | null | undefined;

/**
 * Runs `run` with the entries it asks for: a first run notes the entries it asks for (answered as
 * missing), they are read together (one wait, not one per field), and `run` goes again on them,
 * until a run asks for nothing unread. A run that throws while entries were missing is run again
 * with them (its error may come from an entry it could not see); otherwise its error stands.
 */
export async function withEntries<T>(read: VocabularyLookup, run: (lookup: KnownEntries) => T): Promise<T> {
  const known = new Map<string, VocabularyEntry | null | undefined>();
  for (;;) {
    const missing = new Map<string, [string, string]>();
    const lookup: KnownEntries = (type, id) => {
      const key = `${type}\u0000${id}`;
      if (known.has(key)) return known.get(key);
      missing.set(key, [type, id]);
      return null;
    };
    let result: T;
    try {
      result = run(lookup);
    } catch (error) {
      if (missing.size === 0) throw error;
      await readInto(known, missing, read);
      continue;
    }
    if (missing.size === 0) return result;
    await readInto(known, missing, read);
  }
}

async function readInto(known: Map<string, VocabularyEntry | null | undefined>, missing: Map<string, [string, string]>, read: VocabularyLookup) {
  const entries = await Promise.all([...missing.values()].map(async ([type, id]) => read(type, id)));
  [...missing.keys()].forEach((key, n) => known.set(key, entries[n]));
}
