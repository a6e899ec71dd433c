// A table of rows, as every list page draws it: a caption (for screen readers only, unless
// `showCaption`), one header row of column headings, and the rows given as children.
import type { Child } from "./jsx-runtime";

export interface DataTableProps {
  caption: Child;
  showCaption?: boolean;
  /** Column headings; null ones are left out (a column only some callers see). */
  columns: (Child | null)[];
  class?: string;
  children?: Child;
}

export function DataTable({ caption, showCaption = false, columns, class: className, children }: DataTableProps) {
  // A table with no layout of its own reflows on a phone (site.css): site.js labels each cell with its column's heading.
  return (
    <table class={className ?? "reflow"}>
      <caption class={showCaption ? undefined : "sr-only"}>{caption}</caption>
      <thead>
        <tr>
          {columns
            .filter((c) => c !== null)
            .map((c) => (
              <th scope="col">{c}</th>
            ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
