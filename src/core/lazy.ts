// A library loaded at its first use rather than with the server: each of these serves one feature
// (citations, HTML clean-up, mail, tar archives) that many servers never use, and held from the
// start they would cost every server their memory (the idle target is under 100 MB).

/** `load` run once, at the first call; its result kept. Pass `() => require("name")` with a literal name (the bundler must see it). */
export function lazy<T>(load: () => T): () => T {
  let loaded: { value: T } | null = null;
  return () => (loaded ??= { value: load() }).value;
}
