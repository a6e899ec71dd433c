// Values that are most often known at once and sometimes read first (cached counts, a field with
// nothing to list): on the hottest reads an await of a value that is already there still costs a
// turn of the microtask queue, so such a function answers `T | Promise<T>` and its caller waits
// only for what is not settled.

/** A tuple of values and Promises as the values they settle to (what Promise.all answers). */
export type Settled<T extends readonly unknown[]> = { -readonly [K in keyof T]: Awaited<T[K]> };

/** `next` of `value`: at once when `value` is not a Promise, else once it settles (a rejection passes through). */
export function andThen<T, R>(value: T | Promise<T>, next: (value: T) => R): R | Promise<Awaited<R>> {
  return value instanceof Promise ? (value.then(next) as Promise<Awaited<R>>) : next(value);
}

/** `parts` themselves when none is a Promise; otherwise Promise.all of them (which also handles each rejection). */
export function whenAll<T extends readonly unknown[]>(parts: T): Settled<T> | Promise<Settled<T>> {
  for (const part of parts) if (part instanceof Promise) return Promise.all(parts) as Promise<Settled<T>>;
  return parts as unknown as Settled<T>;
}
