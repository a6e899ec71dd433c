// The entries a lookup read lately, one frozen object per stored text: a read that finds the same
// text answers the same object (parsed once), so a check run on an earlier answer can be confirmed
// by identity after reading again (entries.ts withEntries). Frozen because every caller shares it.
import { setBounded } from "../core/bounded";
import type { VocabularyEntry } from "./model";

/** Entries kept (the ones deposits name are few: resource types, licences, languages, roles). */
const KEPT = 2048;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

export function recentEntries() {
  const kept = new Map<string, { data: string; entry: VocabularyEntry }>();
  const keyOf = (type: string, id: string) => `${type}\u0000${id}`;
  return {
    /** The entry stored as `data`: the object kept for (type, id) while its text is the same. */
    entryOf(type: string, id: string, data: string): VocabularyEntry {
      const key = keyOf(type, id);
      const hit = kept.get(key);
      if (hit?.data === data) return hit.entry;
      const entry = deepFreeze(JSON.parse(data) as VocabularyEntry);
      setBounded(kept, key, { data, entry }, KEPT);
      return entry;
    },
    /** The entry last read for (type, id), if any: a guess, to be confirmed by reading again. */
    recent: (type: string, id: string): VocabularyEntry | undefined => kept.get(keyOf(type, id))?.entry,
  };
}
