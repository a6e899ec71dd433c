// A seeded pseudo-random generator, so generated tests and benchmarks draw the same cases every run.
/** mulberry32: deterministic, so runs compare like with like, and without the correlation between
 * consecutive draws of a plain LCG (which made some combinations never occur). */
export function createRandom(seed: number) {
  let state = seed;
  const rand = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { rand, pick: <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]! };
}
