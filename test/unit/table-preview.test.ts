// The CSV/TSV table preview's reader: it stops reading the file once the rows it shows are in
// (the stream is cancelled, most of a big file never read), keeps RFC 4180 quoting, and stops at
// a quote that never closes instead of gathering the rest of the file into one field.
import { describe, expect, test } from "bun:test";
import { tableRowsOf, TABLE_PREVIEW_ROWS } from "../../src/pages/record/table-preview";
import { nameParts } from "../../src/pages/record/file-name";
import { prefersHtml } from "../../src/core/negotiation";

/** A CSV of `total` rows made chunk by chunk as it is read; says how far it was read and whether it was cancelled. */
function countingCsv(total: number, rowsPerChunk = 200) {
  const seen = { rows: 0, cancelled: false };
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.rows >= total) return controller.close();
        let text = "";
        for (let i = 0; i < rowsPerChunk && seen.rows < total; i++, seen.rows++) text += seen.rows === 0 ? "n,text\n" : `${seen.rows},"row ${seen.rows}, quoted"\n`;
        controller.enqueue(encoder.encode(text));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

describe("the table preview's reader", () => {
  test("a 1,000,000-row file: 1,000 rows shown, the rest never read, the stream cancelled", async () => {
    const { stream, seen } = countingCsv(1_000_000);
    const table = await tableRowsOf(stream, ",");
    expect({ head: table.head, rows: table.rows.length, first: table.rows[0], last: table.rows.at(-1), cut: table.cut }).toEqual({
      head: ["n", "text"],
      rows: TABLE_PREVIEW_ROWS,
      first: ["1", "row 1, quoted"],
      last: ["1000", "row 1000, quoted"],
      cut: true,
    });
    expect(seen.cancelled).toBe(true);
    expect(seen.rows).toBeLessThan(2_000);
  });

  test("exactly 1,000 rows after the headings: all shown, nothing cut", async () => {
    const { stream, seen } = countingCsv(TABLE_PREVIEW_ROWS + 1);
    const table = await tableRowsOf(stream, ",");
    expect({ rows: table.rows.length, cut: table.cut, read: seen.rows }).toEqual({ rows: 1000, cut: false, read: 1001 });
  });

  test("a quote that never closes: the rows before it, and the reason", async () => {
    const table = await tableRowsOf(new Blob(['a,b\n1,2\n3,"never closed\n4,5\n']).stream(), ",");
    expect(table).toEqual({ head: ["a", "b"], rows: [["1", "2"]], cut: true, problem: "Quote Not Closed: the parsing is finished with an opening quote at line 4" });
  });

  test("a quote opened at the start of a 64 MB file: it stops after about 1 MB, the rest never read", async () => {
    let chunks = 0;
    let cancelled = false;
    const piece = new TextEncoder().encode("x".repeat(64 * 1024));
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (chunks++ === 0) return controller.enqueue(new TextEncoder().encode('a\n"'));
          if (chunks > 1024) return controller.close();
          controller.enqueue(piece);
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const table = await tableRowsOf(stream, ",");
    expect({ head: table.head, rows: table.rows, cut: table.cut, cancelled, problem: table.problem?.split(":")[0] }).toEqual({
      head: ["a"],
      rows: [],
      cut: true,
      cancelled: true,
      problem: "Max Record Size",
    });
    expect(chunks).toBeLessThan(40);
  });

  test("a character split between two chunks, a byte-order mark, CRLF line ends and empty lines", async () => {
    const bytes = new TextEncoder().encode("\ufeffname,place\r\n\r\nJosé,Zürich\r\n");
    const split = bytes.indexOf(0xc3);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, split + 1));
        controller.enqueue(bytes.slice(split + 1));
        controller.close();
      },
    });
    expect(await tableRowsOf(stream, ",")).toEqual({ head: ["name", "place"], rows: [["José", "Zürich"]], cut: false });
  });
});

describe("file names and pages for browsers", () => {
  test("a name's parts break after separators and inside camelCase", () => {
    expect(nameParts("glacierMassBalance_svalbard-2020.v2.csv")).toEqual(["glacier", "Mass", "Balance_", "svalbard-", "2020.", "v2.", "csv"]);
    expect(nameParts("data/raw/ABC.txt")).toEqual(["data/", "raw/", "ABC.", "txt"]);
  });

  test("HTML is preferred only when named, with a quality at least JSON's", () => {
    const cases: [string | null, boolean][] = [
      ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true],
      ["application/json, text/html", true],
      ["text/html;q=0.9, application/json", false],
      ["*/*", false],
      ["text/*", false],
      [null, false],
      ["text/html;q=0", false],
      ["application/json", false],
    ];
    expect(cases.map(([accept]) => [accept, prefersHtml(accept)])).toEqual(cases);
  });
});
