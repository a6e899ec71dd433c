// Synchronous checks and renderers over vocabulary entries read beforehand: the lookup reads the
// database (asynchronous), the code that asks for entries field by field stays synchronous.
import type { VocabularyEntry, VocabularyLookup } from "./model";

/** Entries read beforehand, answered at once; null or undefined for one that does not exist. */
export type KnownEntries = (type: string, id: string) => VocabularyEntry | null | undefined;

type Entry = VocabularyEntry | null | undefined;

/**
 * Runs `run` with the entries it asks for. An entry not yet read is answered with the lookup's
 * `recent` guess when it has one (else as missing); every entry the run asked for is then read
 * together (one wait, not one per field). The run stands when it missed none and every guess was
 * the entry read (the lookup answers the same object for unchanged data); otherwise `run` goes
 * again on what was read, until a run asks for nothing unread. A run that throws while entries
 * were missing or guessed is run again with them (its error may come from an entry it could not
 * see); otherwise its error stands. So a deposit naming known entries is checked once, not twice.
 */
export async function withEntries<T>(read: VocabularyLookup, run: (lookup: KnownEntries) => T): Promise<T> {
  const known = new Map<string, Entry>();
  for (;;) {
    // Each entry this run asked for and had not read: its type, id and the guess it was answered with.
    const asked = new Map<string, [type: string, id: string, guess: Entry]>();
    const lookup: KnownEntries = (type, id) => {
      const key = `${type}\u0000${id}`;
      if (known.has(key)) return known.get(key);
      const guess = read.recent?.(type, id);
      asked.set(key, [type, id, guess]);
      return guess ?? null;
    };
    let result: T;
    try {
      result = run(lookup);
    } catch (error) {
      if (asked.size === 0) throw error;
      await readInto(known, asked, read);
      continue;
    }
    if (asked.size === 0) return result;
    await readInto(known, asked, read);
    if ([...asked].every(([key, [, , guess]]) => guess && known.get(key) === guess)) return result;
  }
}

async function readInto(known: Map<string, Entry>, asked: Map<string, [string, string, Entry]>, read: VocabularyLookup) {
  const entries = await Promise.all([...asked.values()].map(async ([type, id]) => read(type, id)));
  [...asked.keys()].forEach((key, n) => known.set(key, entries[n]));
}
