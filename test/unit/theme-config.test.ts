// The THEME_* settings: a bad colour, a missing or non-image logo and bad footer links stop the
// start with a message naming the key; the theme's stylesheet keeps text readable; the front-page
// introduction is sanitised; the logo is served from a hashed URL with its own bytes.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config";
import { contrast } from "../../src/core/theme-color";
import { assetAt } from "../../src/pages/assets";
import { themeOf, themeStylesheet } from "../../src/pages/theme";
import { gif, png } from "../helpers/images";

const root = mkdtempSync(join(tmpdir(), "cairn-theme-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
/** A file under the test's folder with `content`. */
function file(name: string, content: string | Uint8Array): string {
  const path = join(root, `${++counter}-${name}`);
  writeFileSync(path, content);
  return path;
}

const load = (env: Record<string, string>, toml?: string) => {
  const dir = join(root, `data-${++counter}`);
  mkdirSync(dir);
  if (toml !== undefined) writeFileSync(join(dir, "cairn.toml"), toml);
  return loadConfig({ env, flags: { DATA_DIR: dir } });
};

function startError(env: Record<string, string>, toml?: string): string {
  try {
    load(env, toml);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("THEME_PRIMARY_COLOR", () => {
  test.each(["blue", "#12345", "#ggg", "rgb(0, 0, 255)", "1f5fa8", "#1f5fa8; background: url(x)"])("%s stops the start", (value) => {
    expect(startError({ CAIRN_THEME_PRIMARY_COLOR: value })).toBe(`THEME_PRIMARY_COLOR must be a colour such as #1f5fa8 (#rrggbb or #rgb), got ${JSON.stringify(value)}`);
  });

  test("#rrggbb and #rgb are taken; empty keeps Cairn's colour", () => {
    expect(load({ CAIRN_THEME_PRIMARY_COLOR: "#7A1F5C" }).THEME_PRIMARY_COLOR).toBe("#7A1F5C");
    expect(load({ CAIRN_THEME_PRIMARY_COLOR: "#a1c" }).THEME_PRIMARY_COLOR).toBe("#a1c");
    expect(load({}).THEME_PRIMARY_COLOR).toBe("");
  });

  test("the stylesheet: a dark primary keeps its colour with white text; a light one gets black text and darker links", () => {
    expect(themeStylesheet("#7A1F5C")).toBe("/* THEME_PRIMARY_COLOR */\n:root {\n  --primary: #7a1f5c;\n  --primary-ink: #ffffff;\n  --accent: #7a1f5c;\n}\n");
    const light = themeStylesheet("#f2b01e");
    expect(light).toContain("--primary: #f2b01e;");
    expect(light).toContain("--primary-ink: #000000;");
    const accent = /--accent: (#[0-9a-f]{6});/.exec(light)![1]!;
    expect(accent).not.toBe("#f2b01e");
    // Links on the page's light grey (site.css --wash) and button text on the primary both read at 4.5:1.
    expect(contrast(accent, "#f4f6f9")).toBeGreaterThanOrEqual(4.5);
    expect(contrast("#000000", "#f2b01e")).toBeGreaterThanOrEqual(4.5);
  });
});

describe("THEME_LOGO", () => {
  test("a missing file stops the start", () => {
    const path = join(root, "no-such-logo.png");
    expect(startError({ CAIRN_THEME_LOGO: path })).toBe(`THEME_LOGO: ${path} does not exist or cannot be read`);
  });

  test("a folder, a text file, a GIF and a file over 1 MiB stop the start", () => {
    const folder = join(root, "a-folder");
    mkdirSync(folder);
    expect(startError({ CAIRN_THEME_LOGO: folder })).toBe(`THEME_LOGO: ${folder} is not a file`);
    const text = file("logo.png", "not an image at all");
    expect(startError({ CAIRN_THEME_LOGO: text })).toBe(`THEME_LOGO: ${text} is not a PNG, SVG, JPEG or WebP image`);
    const animated = file("logo.gif", gif(10, 10));
    expect(startError({ CAIRN_THEME_LOGO: animated })).toBe(`THEME_LOGO: ${animated} is not a PNG, SVG, JPEG or WebP image`);
    const huge = new Uint8Array(1024 * 1024 + 1);
    huge.set(png(10, 10));
    const big = file("big.png", huge);
    expect(startError({ CAIRN_THEME_LOGO: big })).toBe(`THEME_LOGO: ${big} is ${1024 * 1024 + 1} bytes, more than the 1048576 allowed`);
  });

  test("a PNG or an SVG is taken, its path made absolute, and served from a hashed URL with its own bytes", () => {
    const logo = file("logo.png", png(40, 20));
    expect(load({ CAIRN_THEME_LOGO: logo }).THEME_LOGO).toBe(logo);
    const svg = file("logo.svg", '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>');
    const config = load({ CAIRN_THEME_LOGO: svg });
    const theme = themeOf(config);
    expect(theme.logoUrl).toMatch(/^\/static\/logo\.[0-9a-f]{16}\.svg$/);
    const served = assetAt(theme.logoUrl!)!;
    expect(served.type).toBe("image/svg+xml");
    expect(new TextDecoder().decode(served.body as Uint8Array)).toContain('<rect width="4" height="4"/>');
  });
});

describe("THEME_FOOTER_LINKS", () => {
  test("tables in cairn.toml and a JSON array in the environment", () => {
    const toml = '[[THEME_FOOTER_LINKS]]\ntitle = "Privacy"\nurl = "/privacy"\n\n[[THEME_FOOTER_LINKS]]\ntitle = "Contact"\nurl = "https://example.org/contact"\n';
    expect(load({}, toml).THEME_FOOTER_LINKS).toEqual([
      { title: "Privacy", url: "/privacy" },
      { title: "Contact", url: "https://example.org/contact" },
    ]);
    expect(load({ CAIRN_THEME_FOOTER_LINKS: '[{"title": "Terms", "url": "/terms"}]' }).THEME_FOOTER_LINKS).toEqual([{ title: "Terms", url: "/terms" }]);
    expect(load({}).THEME_FOOTER_LINKS).toEqual([]);
  });

  test.each([
    ['[{"title": "Bad", "url": "javascript:alert(1)"}]', "link 1 (Bad): url must be an https:// or http:// address or a path on this site such as /about"],
    ['[{"title": "Elsewhere", "url": "//evil.example"}]', "link 1 (Elsewhere): url must be an https:// or http:// address or a path on this site such as /about"],
    ['[{"title": "", "url": "/a"}]', "link 1: title is required"],
    ['[{"title": "A", "url": "/a", "target": "_blank"}]', "link 1: target is not a known field (known: title, url)"],
    ['{"title": "A"}', "expected an array of tables ([[THEME_FOOTER_LINKS]]) with title and url"],
    ["title=A", 'expected a JSON array of links such as [{"title": "Privacy", "url": "/privacy"}]'],
  ])("%s stops the start", (value, message) => {
    expect(startError({ CAIRN_THEME_FOOTER_LINKS: value })).toBe(`THEME_FOOTER_LINKS from CAIRN_THEME_FOOTER_LINKS: ${message}`);
  });
});

describe("THEME_FRONTPAGE_INTRO", () => {
  test("is sanitised as descriptions are: markup kept, scripts and event attributes gone", () => {
    const theme = themeOf(load({ CAIRN_THEME_FRONTPAGE_INTRO: '<p onclick="steal()">Data of the <a href="/about">Institute</a><script>alert(1)</script></p>' }));
    expect(theme.intro).toBe('<p>Data of the <a href="/about">Institute</a></p>');
  });
});
