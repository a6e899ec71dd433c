// A file name that wraps where it reads well: after `_`, `-`, `.` and `/`, and between a lower-case
// and an upper-case letter (camelCase), instead of mid-word; site.css breaks anywhere only when a
// part is still wider than its line.
/** Where a name may break: after a separator, or inside camelCase. */
const BREAKS = /(?<=[_\-./])|(?<=\p{Ll})(?=\p{Lu})/u;

/** The name's parts, each of which stays whole when it fits. */
export const nameParts = (name: string): string[] => name.split(BREAKS).filter(Boolean);

export function FileName({ name }: { name: string }) {
  return (
    <span class="file-name">
      {nameParts(name).map((part, i) => (
        <>
          {i > 0 ? <wbr /> : null}
          {part}
        </>
      ))}
    </span>
  );
}
