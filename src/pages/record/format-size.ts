// File sizes as people read them.

/** Sizes as InvenioRDM shows them (decimal units): 68 Bytes, 1.5 kB, 2.3 MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} Bytes`;
  const units = ["kB", "MB", "GB", "TB", "PB"];
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
