// A job's progress report as people read it, the same on the Jobs screen and in `cairn jobs list`.
import type { JobProgress } from "./registry";

/**
 * "3 of 10 (30%): files backed up"; "1200: names" when the end is not known (just the message
 * before the first). The message stands apart from the numbers: a job may count one thing (bytes
 * read) and say another ("entries read (1,000+)").
 */
export function progressText(progress: JobProgress): string {
  const { done, total, message } = progress;
  const tail = message ? `: ${message}` : "";
  if (total === 0) return `0 of 0${tail}`;
  if (!total) return done === 0 && message ? message : `${done}${tail}`;
  return `${done} of ${total} (${Math.floor((100 * Math.min(done, total)) / total)}%)${tail}`;
}
