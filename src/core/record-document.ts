// The record JSON every module reads: the document records store for a draft or record, and the
// record as presented (with id, parent, links...), which exports, DOIs, OAI-PMH and statistics read.

/**
 * A JSON object when present, read leniently: documents come from clients, older versions and
 * test fixtures, so readers check what they use (see core/json.ts) rather than trust a shape.
 */
type Lenient = any;

/**
 * As `GET /api/records/{id}` presents a record to a caller, `files.entries` (keyed by file name)
 * holds only the files that caller may see: readers never decide visibility themselves.
 */
export interface RecordDocument {
  access?: Lenient;
  files?: Lenient;
  metadata?: Lenient;
  custom_fields?: Lenient;
  pids?: Lenient;
  /** Members of the presented record only (the stored document has none of them). */
  id?: string;
  parent?: Lenient;
  links?: Lenient;
  [member: string]: any;
}
