// A file name that wraps where it reads well: after `_`, `-`, `.` and `/`, and between a lower-case
// and an upper-case letter (camelCase), instead of mid-word; site.css breaks anywhere only when a
// part is still wider than its line. The break points are file-name-parts.ts's (the deposit page's too).
import { nameParts } from "./file-name-parts";

export { nameParts };

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
