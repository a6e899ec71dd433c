// core/settled.ts: values most often known at once are answered at once, and waited for only when pending.
import { describe, expect, test } from "bun:test";
import { andThen, whenAll } from "../../src/core/settled";

describe("andThen", () => {
  test("a value goes through at once, not as a Promise", () => {
    expect(andThen(2, (n) => n * 3)).toBe(6);
  });

  test("a Promise goes through once it settles, and a rejection passes through untouched", async () => {
    const later = andThen(Promise.resolve(2), (n) => n * 3);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe(6);
    let called = false;
    const failed = andThen(Promise.reject(new Error("unread")), () => (called = true));
    await expect(failed).rejects.toThrow("unread");
    expect(called).toBe(false);
  });
});

describe("whenAll", () => {
  test("values alone come back as they are; one pending part makes it a Promise of them all", async () => {
    const parts: [number, string] = [1, "a"];
    expect(whenAll(parts)).toBe(parts);
    const mixed = whenAll([1, Promise.resolve("b")] as const);
    expect(mixed).toBeInstanceOf(Promise);
    expect(await mixed).toEqual([1, "b"]);
  });
});
