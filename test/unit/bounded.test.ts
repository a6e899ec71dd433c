// core/bounded.ts: a map kept to its size drops its oldest entry for a new key, not for a key it has.
import { expect, test } from "bun:test";
import { setBounded } from "../../src/core/bounded";

test("a new key at the size drops the oldest and hands it over; setting a kept key drops nothing", () => {
  const map = new Map<string, number>();
  const dropped: number[] = [];
  for (const [key, value] of [
    ["a", 1],
    ["b", 2],
    ["c", 3],
  ] as const)
    setBounded(map, key, value, 3, (v) => dropped.push(v));
  setBounded(map, "b", 20, 3, (v) => dropped.push(v));
  expect([...map]).toEqual([
    ["a", 1],
    ["b", 20],
    ["c", 3],
  ]);
  expect(dropped).toEqual([]);
  setBounded(map, "d", 4, 3, (v) => dropped.push(v));
  expect([...map]).toEqual([
    ["b", 20],
    ["c", 3],
    ["d", 4],
  ]);
  expect(dropped).toEqual([1]);
});
