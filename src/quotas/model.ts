// Wire shapes of storage quotas: the body an administrator sets one with (InvenioRDM's QuotaSchema),
// and the quota and usage the pages and the CLI show.
import { badRequest, validationError, type FieldError } from "../core/errors";

export type QuotaKind = "record" | "user";

/** `{quota_size, max_file_size, notes}` as sent to `POST /api/records/{id}/quota` and `.../users/{id}/quota`. */
export interface QuotaInput {
  quotaSize: number;
  /** null: RDM_FILES_DEFAULT_MAX_FILE_SIZE. */
  maxFileSize: number | null;
  notes: string;
}

/** A quota in force and what it holds: `quotaSize` 0 for a user means no limit. */
export interface QuotaUsage {
  quota_size: number;
  max_file_size: number;
  /** Bytes held (stored, and announced by uploads under way). */
  used: number;
  notes: string;
  /** True when an administrator set it, false when it is the configured default. */
  custom: boolean;
}

const FIELDS = ["quota_size", "max_file_size", "notes"];
const MAX_NOTES = 2000;

function readSize(value: unknown, field: string, errors: FieldError[]): number | null {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) errors.push({ field, messages: ["Must be a whole number of bytes."] });
  else if (value < 0) errors.push({ field, messages: ["Must not be negative."] });
  else return value;
  return null;
}

/**
 * Checks a quota body strictly (InvenioRDM's schema rejects unknown fields): `quota_size` required,
 * `max_file_size` optional (null or absent: the configured default), `notes` optional text.
 */
export function parseQuotaBody(body: unknown): QuotaInput {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest("Send a JSON object with quota_size (and optionally max_file_size and notes).");
  const input = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const key of Object.keys(input)) if (!FIELDS.includes(key)) errors.push({ field: key, messages: ["Unknown field."] });
  let quotaSize: number | null = null;
  if (input.quota_size === undefined || input.quota_size === null) errors.push({ field: "quota_size", messages: ["Missing data for required field."] });
  else quotaSize = readSize(input.quota_size, "quota_size", errors);
  const maxFileSize = input.max_file_size === undefined || input.max_file_size === null ? null : readSize(input.max_file_size, "max_file_size", errors);
  if (input.max_file_size !== undefined && input.max_file_size !== null && maxFileSize === 0) errors.push({ field: "max_file_size", messages: ["Must be at least 1 byte."] });
  const notes = input.notes ?? "";
  if (typeof notes !== "string") errors.push({ field: "notes", messages: ["Must be a string."] });
  else if (notes.length > MAX_NOTES) errors.push({ field: "notes", messages: [`At most ${MAX_NOTES} characters.`] });
  if (errors.length || quotaSize === null) throw validationError(errors);
  return { quotaSize, maxFileSize, notes: (notes as string).trim() };
}
