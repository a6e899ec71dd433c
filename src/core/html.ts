// Sanitized HTML (descriptions) as plain text, for targets that are not HTML (JSON, XML, search).

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/**
 * Plain text from sanitized HTML: script/style content and tags dropped, entities decoded, trimmed.
 * `separateWords` puts a space where a tag was, so `<p>a</p><p>b</p>` stays two words (search).
 */
export function stripHtml(html: string, options: { separateWords?: boolean } = {}): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<[^>]*>/g, options.separateWords ? " " : "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] !== "#") return NAMED_ENTITIES[code.toLowerCase()] ?? whole;
      const n = code[1] === "x" || code[1] === "X" ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
    })
    .trim();
}
