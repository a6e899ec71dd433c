// The start of a CSV or TSV file as rows for the landing page's table preview: read through the
// files service as the caller, chunk by chunk, parsed by csv-parse (RFC 4180: quoted fields with
// delimiters, quotes and line breaks), and the stream cancelled as soon as enough rows are in —
// never the whole file in memory, whatever its size.
import { CsvError, parse } from "csv-parse/stream";
import type { Actor } from "../../core/actor";
import type { ContentRequest } from "../../files/download";
import type { PageServices } from "../services";

/** Data rows shown (the first row, the column headings, comes besides). */
export const TABLE_PREVIEW_ROWS = 1000;
/** Characters of cells shown in all: a file of very wide rows stops sooner than at TABLE_PREVIEW_ROWS. */
const CELL_BUDGET = 2_000_000;
/** Characters of one cell shown; a longer one is cut with "…". */
const CELL_MAX = 2000;
/** One record's size csv-parse accepts: an unclosed quote must not gather the rest of the file into one field. */
const RECORD_MAX = 1024 * 1024;

export interface TablePreview {
  /** The first row: the column headings. */
  head: string[];
  rows: string[][];
  /** The file has more than is shown. */
  cut: boolean;
  /** Set when the file stops parsing as CSV (the rows before it are shown). */
  problem?: string;
}

/** The delimiter of a table file's media type; null when it is no table. */
export function tableDelimiter(mimetype: unknown): string | null {
  const type = typeof mimetype === "string" ? mimetype.split(";")[0]!.trim().toLowerCase() : "";
  if (type === "text/csv" || type === "application/csv") return ",";
  if (type === "text/tab-separated-values") return "\t";
  return null;
}

/** Previews are no downloads: no visitor is given, so statistics count only the download links. */
const WHOLE_FILE: ContentRequest = { head: false, range: null, ifRange: null, ifNoneMatch: null, ifModifiedSince: null };

const cellText = (cell: string) => (cell.length > CELL_MAX ? `${cell.slice(0, CELL_MAX - 1)}…` : cell);

/**
 * Collects rows from `chunks` (the file's bytes in order) until the headings and
 * TABLE_PREVIEW_ROWS rows are in and one more shows the file goes on. Each record is taken as
 * csv-parse finds it (on_record), so nothing queues behind the reader.
 */
export async function tableRowsOf(chunks: ReadableStream<Uint8Array>, delimiter: string): Promise<TablePreview> {
  const found: string[][] = [];
  let budget = CELL_BUDGET;
  let full = false;
  const parser = parse({
    delimiter,
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: RECORD_MAX,
    on_record: (record: string[]) => {
      if (full) return null;
      const row = record.map(cellText);
      budget -= row.reduce((n, cell) => n + cell.length + 1, 0);
      found.push(row);
      // The headings, the rows shown and one more, which only says the file goes on; or the budget spent.
      if (found.length > TABLE_PREVIEW_ROWS + 1 || budget < 0) full = true;
      return null;
    },
  });
  const writer = parser.writable.getWriter();
  const source = chunks.getReader();
  let problem: string | undefined;
  try {
    while (!full) {
      const { value, done } = await source.read();
      if (done) {
        await writer.close();
        break;
      }
      // Bytes, as csv-parse reads them (a character split between two chunks is joined in its field).
      await writer.write(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    problem = error.message;
  } finally {
    // Stops reading the file (the store's stream closes) and the parser, whichever ended first.
    await source.cancel().catch(() => {});
    await writer.abort().catch(() => {});
  }
  const [head = [], ...rest] = found;
  const rows = rest.slice(0, TABLE_PREVIEW_ROWS);
  return { head, rows, cut: full || problem !== undefined, ...(problem ? { problem } : {}) };
}

/** The start of a table file of a record (or draft, `isDraft`) as `actor` may read it. */
export async function readTablePreview(files: PageServices["files"], actor: Actor, id: string, isDraft: boolean, key: string, delimiter: string): Promise<TablePreview> {
  const response = await files.content(actor, id, isDraft, key, WHOLE_FILE, null);
  if (!response.body) return { head: [], rows: [], cut: false };
  return tableRowsOf(response.body, delimiter);
}
