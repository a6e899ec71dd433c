// Maps kept to a size (caches of parsed or prepared things): the oldest entry goes when a new key
// would take the map past its size.

/** Sets `key` in `map`; a new key at `max` entries first drops the oldest, handed to `dropped` (to release it). */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number, dropped?: (value: V) => void): void {
  if (!map.has(key) && map.size >= max) {
    const [oldestKey, oldest] = map.entries().next().value!;
    map.delete(oldestKey);
    dropped?.(oldest);
  }
  map.set(key, value);
}
