// Counts as pages show them (1,234). One formatter for every page: Number#toLocaleString builds a
// formatter on each call, which cost a landing page more than the rest of its statistics box.

const COUNT = new Intl.NumberFormat("en");

/** An integer with thousands separators, as `n.toLocaleString("en")` writes it. */
export const formatCount = (n: number): string => COUNT.format(n);
