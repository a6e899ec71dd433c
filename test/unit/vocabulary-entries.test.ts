// vocabularies/entries.ts withEntries and vocabularies/recent.ts: a synchronous check over entries
// read beforehand runs once when the lookup's recent answers are confirmed by the read, and again
// whenever one was stale or missing.
import { describe, expect, test } from "bun:test";
import type { VocabularyEntry, VocabularyLookup } from "../../src/vocabularies/model";
import { withEntries } from "../../src/vocabularies/entries";
import { recentEntries } from "../../src/vocabularies/recent";

/** A lookup over stored texts (type/id -> JSON), through recentEntries as the service's is, counting its reads. */
function storedLookup(stored: Map<string, string>, withRecent: boolean) {
  const recent = recentEntries();
  const reads: string[] = [];
  const read = (type: string, id: string): Promise<VocabularyEntry | null> => {
    reads.push(`${type}/${id}`);
    const data = stored.get(`${type}/${id}`);
    return Promise.resolve(data === undefined ? null : recent.entryOf(type, id, data));
  };
  const lookup: VocabularyLookup = withRecent ? Object.assign(read, { recent: recent.recent }) : read;
  return { lookup, reads };
}

const title = (lookup: (type: string, id: string) => VocabularyEntry | null | undefined, id: string) => lookup("licenses", id)?.title?.en ?? `unknown ${id}`;

/** The titles of licences `ids` through withEntries, and how many times the check ran for them. */
async function titlesOf(lookup: VocabularyLookup, ids: string[]) {
  let runs = 0;
  const titles = await withEntries(lookup, (known) => (runs++, ids.map((id) => title(known, id))));
  return { titles, runs };
}

describe("withEntries", () => {
  const stored = () =>
    new Map([
      ["licenses/cc-by-4.0", JSON.stringify({ id: "cc-by-4.0", title: { en: "Creative Commons Attribution 4.0" } })],
      ["licenses/mit", JSON.stringify({ id: "mit", title: { en: "MIT License" } })],
    ]);

  test("without recent entries: a first run learns what to read, a second runs on it", async () => {
    const { lookup, reads } = storedLookup(stored(), false);
    expect(await titlesOf(lookup, ["cc-by-4.0", "mit"])).toEqual({ titles: ["Creative Commons Attribution 4.0", "MIT License"], runs: 2 });
    expect(reads).toEqual(["licenses/cc-by-4.0", "licenses/mit"]);
  });

  test("entries read before are guessed, and the run stands when the read finds them unchanged", async () => {
    const { lookup, reads } = storedLookup(stored(), true);
    await titlesOf(lookup, ["cc-by-4.0", "mit"]);
    reads.length = 0;
    expect(await titlesOf(lookup, ["cc-by-4.0", "mit"])).toEqual({ titles: ["Creative Commons Attribution 4.0", "MIT License"], runs: 1 });
    expect(reads).toEqual(["licenses/cc-by-4.0", "licenses/mit"]);
  });

  test("a guess the read finds changed runs the check again on the stored entry", async () => {
    const texts = stored();
    const { lookup } = storedLookup(texts, true);
    await titlesOf(lookup, ["mit"]);
    texts.set("licenses/mit", JSON.stringify({ id: "mit", title: { en: "The MIT License" } }));
    expect(await titlesOf(lookup, ["mit"])).toEqual({ titles: ["The MIT License"], runs: 2 });
  });

  test("an entry never read (or gone) beside guessed ones is read and the check runs again", async () => {
    const texts = stored();
    const { lookup } = storedLookup(texts, true);
    await titlesOf(lookup, ["mit"]);
    texts.delete("licenses/mit");
    expect(await titlesOf(lookup, ["mit", "cc-by-4.0"])).toEqual({ titles: ["unknown mit", "Creative Commons Attribution 4.0"], runs: 2 });
  });

  test("a run that throws on a guess is run again on what was read; an error with everything read stands", async () => {
    const texts = stored();
    const { lookup } = storedLookup(texts, true);
    await titlesOf(lookup, ["mit"]);
    texts.set("licenses/mit", JSON.stringify({ id: "mit", title: { en: "Fine" } }));
    const check = (known: (type: string, id: string) => VocabularyEntry | null | undefined) => {
      if (title(known, "mit") === "MIT License") throw new Error("stale");
      return title(known, "mit");
    };
    expect(await withEntries(lookup, check)).toBe("Fine");
    expect(
      withEntries(lookup, () => {
        throw new Error("always");
      }),
    ).rejects.toThrow("always");
  });
});

describe("recentEntries", () => {
  test("the same stored text answers the same frozen object; a changed text a new one", () => {
    const recent = recentEntries();
    const first = recent.entryOf("licenses", "mit", '{"id":"mit","title":{"en":"MIT"}}');
    expect(recent.entryOf("licenses", "mit", '{"id":"mit","title":{"en":"MIT"}}')).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.title)).toBe(true);
    expect(recent.recent("licenses", "mit")).toBe(first);
    const changed = recent.entryOf("licenses", "mit", '{"id":"mit","title":{"en":"MIT License"}}');
    expect(changed).not.toBe(first);
    expect(changed.title).toEqual({ en: "MIT License" });
    expect(recent.recent("licenses", "mit")).toBe(changed);
    expect(recent.recent("licenses", "apache-2.0")).toBeUndefined();
  });
});
