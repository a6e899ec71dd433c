// The THEME_PRIMARY_COLOR setting as colours that stay readable: WCAG 2 relative luminance and
// contrast, the text colour that reads on the primary, and the primary darkened for text on a light page.

/** `#rgb` or `#rrggbb`: the forms the contrast computation reads (named colours and rgb() would need a colour parser). */
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export const isHexColor = (value: string) => HEX.test(value);

type Rgb = [number, number, number];

function rgbOf(hex: string): Rgb {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join("") : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

const hexOf = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

/** WCAG 2's relative luminance. */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white, whichever contrasts more with `background` (one of them always reaches 4.5:1). */
export const inkOn = (background: string) => (contrast(background, "#ffffff") >= contrast(background, "#000000") ? "#ffffff" : "#000000");

/** `color` itself when text in it reads on `page` at `ratio`, else the nearest darker shade that does. */
export function darkenFor(color: string, page: string, ratio = 4.5): string {
  const rgb = rgbOf(color);
  for (let step = 0; step <= 20; step++) {
    const shade = hexOf(rgb.map((c) => c * (1 - step / 20)) as Rgb);
    if (contrast(shade, page) >= ratio) return shade;
  }
  return "#000000";
}
