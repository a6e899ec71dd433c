// Where a backup run writes: a snapshot folder (folder.ts) or an archive (archive.ts), behind one
// interface so the run itself (service.ts) is the same for both.
import type { FileEntry, Manifest } from "./manifest";

export interface BackupSink {
  /** The snapshot's name (a folder's timestamp, an archive's file name). */
  name: string;
  /** Where the database snapshot is to be written (a path that does not exist yet). */
  databasePath: string;
  /** Objects that may be put at once (an archive's entries go one by one). */
  parallel: number;
  /** False once hard links turned out impossible (or were never asked for). */
  linksUsed(): boolean;
  /** True when the destination already holds this object whole (an earlier snapshot's): nothing to copy. */
  hasObject(id: string, size: number): Promise<boolean>;
  /** MD5 of an object hasObject() found (logos, whose MD5 the database does not keep). */
  md5OfObject(id: string): Promise<string>;
  /**
   * Adds an object from the file store, hashing it, and throws a BackupError when its size or MD5
   * (when known: "" for logos) is not the expected one, before the object can be taken as good.
   * Throws ENOENT when the store no longer has it.
   */
  putObject(id: string, from: string, expected: { size: number; md5: string }, signal?: AbortSignal): Promise<{ md5: string; linked: boolean }>;
  /** Adds the snapshot at databasePath (first); returns its checksum. */
  putDatabase(): Promise<FileEntry>;
  /** Adds another file of the data directory under `path` (relative, with forward slashes). */
  putFile(path: string, from: string): Promise<FileEntry>;
  /** Writes the manifest last and makes the backup appear complete; returns where it is. */
  commit(manifest: Manifest): Promise<string>;
  /** Removes everything this run wrote but objects already in a shared pool. */
  abort(): Promise<void>;
}
