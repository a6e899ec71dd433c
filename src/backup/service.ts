// Backups as a service: back up the data directory, verify a backup, restore one. Used by the
// `backup`/`restore` commands and the scheduled backup job; only administrators (and the system) may.
import type { Config } from "../config";
import { requireAdmin, type Actor } from "../core/actor";
import type { Clock } from "../core/time";
import { runBackup, type BackupOptions } from "./backup";
import { restoreBackup, type RestoreProgress } from "./restore";
import { verifyBackup, type VerifyProgress } from "./verify";

export type BackupService = ReturnType<typeof createBackupService>;

export function createBackupService(deps: { config: Config; clock: Clock }) {
  const { config, clock } = deps;
  return {
    /** Backs up the configured data directory to `dest` (a folder, or a .tar.zst/.tar.gz file). */
    backup(actor: Actor, input: Omit<BackupOptions, "dataDir" | "storage" | "now">) {
      requireAdmin(actor);
      return runBackup({ ...input, dataDir: config.DATA_DIR, storage: config.FILES_STORAGE, now: () => clock.now() });
    },

    verify(actor: Actor, source: string, onProgress?: VerifyProgress) {
      requireAdmin(actor);
      return verifyBackup(source, onProgress);
    },

    /** Restores `source` into the configured data directory, which must be empty. */
    restore(actor: Actor, source: string, onProgress?: RestoreProgress) {
      requireAdmin(actor);
      return restoreBackup(source, config.DATA_DIR, onProgress);
    },
  };
}
