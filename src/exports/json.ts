// The JSON export: the record exactly as `GET /api/records/{id}` shows it (all metadata and custom fields).
import type { ExportFormat } from "./types";

export const jsonFormat: ExportFormat = {
  id: "json",
  label: "JSON",
  mediaTypes: ["application/json"],
  extension: "json",
  render: (record) => JSON.stringify(record, null, 2),
};
