// The deposit page's file list wraps a long file name where it reads well, at the same points as
// the landing page (record/file-name-parts.ts: after `_ - . /` and inside camelCase), never
// mid-word, and never makes a phone's screen scroll sideways.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { nameParts } from "../../src/pages/record/file-name-parts";
import { htmlErrors, seriousAxeViolations, signIn, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { createDraft } from "../helpers/records";

let app: BrowserApp;
beforeAll(async () => {
  app = await startBrowserApp();
});
afterAll(() => app.stop());

// No hyphen or space: without break points of its own the name would be one unbreakable word.
const NAME = "glacierMassBalance_svalbardHourlyMeasurements_2020.v2.finalRelease_reprocessed.csv";

/** The offsets in the name's text where its rendered lines begin (after the first). */
async function lineStarts(page: Page, key: string): Promise<number[]> {
  return page.evaluate(`(() => {
    const span = document.querySelector(${JSON.stringify(`li.file[data-key="${key}"] .name`)});
    const tops = [];
    const walker = document.createTreeWalker(span, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.textContent.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        tops.push(Math.round(range.getBoundingClientRect().top));
      }
    }
    return tops.flatMap((top, i) => (i > 0 && top > tops[i - 1] ? [i] : []));
  })()`);
}

describe("a long file name in the deposit page's list", () => {
  for (const width of [390, 1280]) {
    test(`at ${width} px it breaks only at separators and camelCase, with no sideways scroll`, async () => {
      const draft = await createDraft(app, undefined, { as: "alice" });
      const person = await app.newPerson();
      const page = await person.newPage();
      await page.setViewportSize({ width, height: 900 });
      try {
        await signIn(page, "alice", "alice-password");
        const served = await page.goto(`/uploads/${draft.id}`);
        expect(served?.status()).toBe(200);
        const html = await served!.text();
        await page.locator("#file-input").setInputFiles({ name: NAME, mimeType: "text/csv", buffer: Buffer.from("t,v\n1,2\n") });
        const row = page.locator(`li.file[data-key="${NAME}"]`);
        await row.getByText(/Uploaded/).waitFor({ timeout: 20_000 });
        await expect(row.locator(".name").textContent()).resolves.toBe(NAME);

        // Every place a line begins is where one of the landing page's parts begins.
        const partStarts = nameParts(NAME).map((_, i, parts) => parts.slice(0, i).join("").length);
        const starts = await lineStarts(page, NAME);
        if (width === 390) expect(starts.length).toBeGreaterThan(0);
        else expect(starts).toEqual([]);
        for (const start of starts) expect({ start, atPart: partStarts.includes(start) }).toEqual({ start, atPart: true });

        expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
        expect(await seriousAxeViolations(page)).toEqual([]);
        expect(await htmlErrors(html)).toEqual([]);
      } finally {
        await person.close();
      }
    });
  }
});
