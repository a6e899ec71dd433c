// The controlled lists' look-ups put what the typed text names first: a licence by its id or its
// title as a person types it, and the family of a short id ("cc-by") before its look-alikes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { hitIds } from "../helpers/search";

let ctx: TestApp;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const suggest = async (type: string, text: string): Promise<string[]> =>
  hitIds((await ctx.call("GET", `/api/vocabularies/${type}?suggest=${encodeURIComponent(text)}&size=8`)).json);

describe("exact matches first", () => {
  for (const typed of ["cc-by-4.0", "CC BY 4.0", "cc by 4.0", "Creative Commons Attribution 4.0 International", "creative commons attribution 4.0"]) {
    test(`"${typed}" puts CC BY 4.0 first`, async () => {
      expect((await suggest("licenses", typed))[0]).toBe("cc-by-4.0");
    });
  }

  test('"cc-by" offers cc-by-4.0 among the first eight, after the exact family', async () => {
    const ids = await suggest("licenses", "cc-by");
    expect(ids).toContain("cc-by-4.0");
    expect(ids.slice(0, 5).every((id) => id.startsWith("cc-by-"))).toBe(true);
  });

  test("a language by its title or id", async () => {
    expect((await suggest("languages", "English"))[0]).toBe("eng");
    expect((await suggest("languages", "eng"))[0]).toBe("eng");
  });
});

describe("a suggestion with no letters or digits", () => {
  // Such text matches nothing in the index, so the list comes in name order; the exact-match
  // ordering's parameters were once bound anyway, one too many for the statement: a 500.
  for (const typed of ["%", "!!", "_", "-- "]) {
    test(`"${typed}" lists licences in name order, as with no suggestion`, async () => {
      const res = await ctx.call("GET", `/api/vocabularies/licenses?suggest=${encodeURIComponent(typed)}&size=5`);
      expect(res.status).toBe(200);
      const plain = await ctx.call("GET", "/api/vocabularies/licenses?size=5&sort=title");
      expect(hitIds(res.json)).toEqual(hitIds(plain.json));
    });
  }
});
