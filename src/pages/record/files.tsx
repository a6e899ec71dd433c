// A record's files on its landing page: the table (name, size, MD5, download link) and the inline
// previews (images, PDF in the browser's viewer, the start of text files) in disclosures.
import { DataTable } from "../table";
import type { JsonObject } from "../../core/json";
import { FileName } from "./file-name";
import { formatSize } from "./format-size";
import type { RecordUrls } from "./links";
import { previewKind, TEXT_PREVIEW_BYTES, type PreviewKind, type PreviewStart } from "./preview";
import { CsvTable } from "./table-view";

type Json = JsonObject;

export interface FileRow {
  key: string;
  size: number;
  /** Hex MD5 (the entry's `md5:` checksum), or null when it has another algorithm. */
  md5: string | null;
  mimetype: string;
  preview: PreviewKind | null;
}

/** The start of a text or table file shown in its preview, read by the page before rendering. */
export type TextPreviews = Map<string, PreviewStart>;

/** The record's visible file entries in their order (the record JSON lists only those the caller may see). */
export function fileRows(record: Json): FileRow[] {
  const entries = Object.values((record.files?.entries ?? {}) as Record<string, Json>);
  return entries.map((e) => {
    const checksum = typeof e.checksum === "string" ? e.checksum : "";
    return {
      key: String(e.key),
      size: typeof e.size === "number" ? e.size : 0,
      md5: checksum.startsWith("md5:") ? checksum.slice(4) : null,
      mimetype: typeof e.mimetype === "string" ? e.mimetype : "",
      preview: previewKind(e.mimetype),
    };
  });
}

/**
 * The text or table file whose start the page itself shows: the first preview, which is open
 * (every read costs a render its time; record.js loads the others' when they are opened).
 */
export const textPreviewed = (rows: FileRow[]): FileRow[] => {
  const first = rows.find((r) => r.preview !== null);
  return first?.preview === "text" || first?.preview === "table" ? [first] : [];
};

export { formatSize };

/** A table file's first rows; loaded by record.js from the table page when the preview is opened, if the page did not read them. */
function TablePreview({ row, urls, texts }: { row: FileRow; urls: RecordUrls; texts: TextPreviews }) {
  const read = texts.get(row.key);
  if (read?.kind === "table") return <CsvTable name={row.key} table={read.table} size={row.size} download={urls.content(row.key)} />;
  return (
    <div class="table-preview" data-table-src={urls.table(row.key)}>
      <p>
        <a href={urls.table(row.key)}>Open {row.key} as a table</a>
      </p>
    </div>
  );
}

function TextPreview({ row, urls, texts }: { row: FileRow; urls: RecordUrls; texts: TextPreviews }) {
  const read = texts.get(row.key);
  const text = read?.kind === "text" ? read : undefined;
  const more = (
    <>
      <a href={urls.preview(row.key)}>open the whole file</a> or download it.
    </>
  );
  if (!text) {
    // Loaded by record.js when the preview is opened; without scripts, the link shows the file as text.
    return (
      <div class="text-preview" data-src={urls.preview(row.key)} data-bytes={String(TEXT_PREVIEW_BYTES)}>
        <p>
          <a href={urls.preview(row.key)}>Open {row.key} in the browser</a>
        </p>
      </div>
    );
  }
  return (
    <div class="text-preview">
      {/* Focusable: a long preview scrolls, and keyboards must reach it. */}
      <pre tabindex="0">{text.text}</pre>
      {text.truncated ? (
        <p class="muted">
          The first {TEXT_PREVIEW_BYTES / 1024} KB are shown: {more}
        </p>
      ) : null}
    </div>
  );
}

function Preview({ row, index, urls, texts }: { row: FileRow; index: number; urls: RecordUrls; texts: TextPreviews }) {
  const label = `Preview of ${row.key}`;
  return (
    <details class="preview" open={index === 0} id={`preview-${index}`}>
      <summary>
        Preview: <FileName name={row.key} />
      </summary>
      {row.preview === "image" ? <img src={urls.preview(row.key)} alt={label} loading="lazy" /> : null}
      {row.preview === "pdf" ? <iframe src={urls.preview(row.key)} title={label} loading="lazy" /> : null}
      {row.preview === "text" ? <TextPreview row={row} urls={urls} texts={texts} /> : null}
      {row.preview === "table" ? <TablePreview row={row} urls={urls} texts={texts} /> : null}
    </details>
  );
}

export function FilesTable({ rows, urls, texts }: { rows: FileRow[]; urls: RecordUrls; texts: TextPreviews }) {
  const previewed = rows.filter((r) => r.preview !== null);
  const total = rows.reduce((n, r) => n + r.size, 0);
  return (
    <>
      <div class="table-scroll">
        <DataTable
          caption={
            <>
              {rows.length} {rows.length === 1 ? "file" : "files"}, {formatSize(total)} in all
            </>
          }
          showCaption
          class="files reflow"
          columns={["Name", "Size", "Checksum (MD5)", <span class="sr-only">Download</span>]}
        >
          {rows.map((row) => (
            <tr>
              <td>
                <a href={urls.content(row.key)}>
                  <FileName name={row.key} />
                </a>
              </td>
              <td class="nowrap" title={`${row.size} bytes`}>
                {formatSize(row.size)}
              </td>
              <td>{row.md5 ? <code>{row.md5}</code> : <span class="muted">—</span>}</td>
              <td>
                <a class="button secondary small" href={urls.content(row.key)}>
                  Download<span class="sr-only"> {row.key}</span>
                </a>
              </td>
            </tr>
          ))}
        </DataTable>
      </div>
      {previewed.length ? (
        <div class="previews">
          {previewed.map((row, index) => (
            <Preview row={row} index={index} urls={urls} texts={texts} />
          ))}
        </div>
      ) : null}
    </>
  );
}
