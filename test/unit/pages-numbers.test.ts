// Counts on pages: the shared formatter writes what Number#toLocaleString("en") wrote before it.
import { describe, expect, test } from "bun:test";
import { formatCount } from "../../src/pages/numbers";

describe("formatCount", () => {
  test("thousands separated by commas, small and negative numbers as they are", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1000)).toBe("1,000");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(-4321)).toBe("-4,321");
  });

  test("the same text as toLocaleString('en') across magnitudes", () => {
    for (let n = 1; n < 1e13; n = n * 7 + 3) expect(formatCount(n)).toBe(n.toLocaleString("en"));
  });
});
