// What the administration's browser tests share: its navigation, a screen's heading, and the check
// every screen passes (valid markup, no serious axe violation, nothing wider than a desktop's or a
// phone's screen).
import { expect } from "bun:test";
import type { Page } from "playwright-core";
import { htmlErrors, seriousAxeViolations } from "./browser";

export const SCREEN_SIZES = [
  { width: 1280, height: 900 },
  { width: 375, height: 800 },
];

export const heading = (page: Page) => page.getByRole("heading", { level: 1 }).textContent();
export const adminNav = (page: Page) => page.getByRole("navigation", { name: "Administration" });

/** Goes to a screen by the administration's navigation and waits for its address. */
export async function openScreen(page: Page, label: string, path: string): Promise<void> {
  await adminNav(page).getByRole("link", { name: label }).click();
  await page.waitForURL((url) => url.pathname === path);
}

/** No serious axe violations, valid markup, and nothing wider than the screen, at each size. */
export async function checkScreen(page: Page): Promise<void> {
  const html = await (await page.request.get(page.url())).text();
  expect(await htmlErrors(html)).toEqual([]);
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect((await page.evaluate("document.documentElement.scrollWidth")) as number).toBeLessThanOrEqual(size.width);
  }
  await page.setViewportSize(SCREEN_SIZES[0]!);
}
