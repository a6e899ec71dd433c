// A CSV or TSV file's first rows as an HTML table (table-preview.ts reads them): the first row as
// the column headings, line breaks inside cells kept, and a note when the file has more.
import { formatSize } from "./format-size";
import type { TablePreview } from "./table-preview";
import { formatCount } from "../numbers";

/** Headings for every column any row has (a heading left empty is named by its number for screen readers). */
function headingsOf(table: TablePreview): string[] {
  const width = Math.max(table.head.length, ...table.rows.map((r) => r.length));
  return Array.from({ length: width }, (_, i) => table.head[i] ?? "");
}

export function CsvTable({ name, table, size, download }: { name: string; table: TablePreview; size: number; download: string }) {
  const headings = headingsOf(table);
  return (
    <div class="csv-preview">
      {/* Focusable and named: a wide table scrolls sideways in its own box, and keyboards must reach it. */}
      <section class="table-scroll" tabindex="0" aria-label={`Table preview of ${name}`}>
        <table class="csv">
          <caption class="sr-only">The first rows of {name}</caption>
          <thead>
            <tr>
              {headings.map((h, i) => (
                <th scope="col">{h || <span class="sr-only">Column {i + 1}</span>}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr>
                {headings.map((_, i) => (
                  <td>{row[i] ?? ""}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {table.cut ? (
        <p class="muted small table-note">
          Showing the first {formatCount(table.rows.length)} rows of {formatCount(size)} bytes ({formatSize(size)}).{" "}
          {table.problem ? "The rest could not be read as a table. " : ""}
          <a href={download}>Download the whole file</a>.
        </p>
      ) : null}
    </div>
  );
}
