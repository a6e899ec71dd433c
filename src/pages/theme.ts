// The site's look from THEME_* settings (checked by config.ts at start): the logo and a small
// stylesheet of the primary colour, served as hashed assets (the CSP forbids inline styles), the
// front page's sanitised introduction and the footer's links.
import { readFileSync } from "node:fs";
import type { Config } from "../config";
import type { FooterLink } from "../core/footer-links";
import { sanitizeDescription } from "../core/html";
import { HEAD_BYTES, sniffImageType } from "../core/image-type";
import { darkenFor, inkOn } from "../core/theme-color";
import { registerAsset } from "./assets";

export interface Theme {
  /** The header's logo, or none (the site name as text). */
  logoUrl?: string;
  /** The stylesheet that sets the primary colour's custom properties, or none (site.css's own). */
  stylesheetUrl?: string;
  /** Sanitised HTML for the front page, or "". */
  intro: string;
  footerLinks: FooterLink[];
}

export const DEFAULT_THEME: Theme = { intro: "", footerLinks: [] };

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/svg+xml": "svg", "image/jpeg": "jpg", "image/webp": "webp" };

/** The page backgrounds text in the primary colour sits on (site.css's --paper and --wash): links must read on the darker. */
const PAGE_BACKGROUND = "#f4f6f9";

/**
 * The custom properties site.css takes its primary colour from: `--primary` fills buttons with the
 * colour as configured, `--primary-ink` is their text (black or white by luminance), `--accent`
 * colours links and borders, darkened if needed to keep 4.5:1 on the page.
 */
export function themeStylesheet(primary: string): string {
  const color = primary.toLowerCase();
  return `/* THEME_PRIMARY_COLOR */\n:root {\n  --primary: ${color};\n  --primary-ink: ${inkOn(color)};\n  --accent: ${darkenFor(color, PAGE_BACKGROUND)};\n}\n`;
}

/** Reads the configured theme once, at start (the logo's bytes are kept: it is small, config.ts checked it). */
export function themeOf(config: Pick<Config, "THEME_LOGO" | "THEME_PRIMARY_COLOR" | "THEME_FRONTPAGE_INTRO" | "THEME_FOOTER_LINKS">): Theme {
  const theme: Theme = { intro: config.THEME_FRONTPAGE_INTRO ? sanitizeDescription(config.THEME_FRONTPAGE_INTRO) : "", footerLinks: config.THEME_FOOTER_LINKS };
  if (config.THEME_LOGO) {
    const bytes = new Uint8Array(readFileSync(config.THEME_LOGO));
    const type = sniffImageType(bytes.subarray(0, HEAD_BYTES));
    theme.logoUrl = registerAsset(`logo.${EXTENSIONS[type ?? ""] ?? "png"}`, bytes).url;
  }
  if (config.THEME_PRIMARY_COLOR) theme.stylesheetUrl = registerAsset("theme.css", themeStylesheet(config.THEME_PRIMARY_COLOR)).url;
  return theme;
}
