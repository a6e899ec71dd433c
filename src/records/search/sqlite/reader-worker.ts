// A reader worker: record searches on its own read-only connection and its own column copy, so a
// costly search never holds up the server's request thread (readers.ts sends the work).
import { openReader, syncDb, type SqliteDb } from "../../../db/sqlite/connection";
import { HttpError } from "../../../core/errors";
import { createColumnCopy, type ColumnCopy } from "./column-copy";
import { findRecords } from "./search";
import type { ReaderMessage } from "./readers";

declare const self: Worker;

let db: SqliteDb | null = null;
let copy: ColumnCopy | null = null;

self.onmessage = (event: MessageEvent<ReaderMessage>) => {
  const m = event.data;
  switch (m.op) {
    case "open":
      db = syncDb(openReader(m.path));
      copy = createColumnCopy();
      return;
    case "search":
      try {
        postMessage({ id: m.id, found: findRecords(db!, m.scope, m.input, m.page, copy!) });
      } catch (err) {
        const error = err instanceof HttpError ? { status: err.status, message: err.message, errors: err.errors } : { status: 500, message: String((err as Error)?.stack ?? err) };
        postMessage({ id: m.id, error });
      }
      return;
    case "close":
      db?.$client.close();
      db = null;
      postMessage({ closed: true });
      return;
  }
};
