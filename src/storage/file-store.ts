// The file store Cairn runs on, chosen by FILES_STORAGE: the local disk (default) or S3-compatible
// object storage. The interface and the receiving errors are in types.ts.
import { join } from "node:path";
import type { Config } from "../config";
import { createLocalFileStore } from "./local";
import { createS3FileStore, s3OptionsOf } from "./s3";
import type { FileStore } from "./types";

export * from "./types";
export { createLocalFileStore as createFileStore } from "./local";

/** The store of DATA/files (local), or the S3 bucket with DATA/files staging uploads (s3). */
export function openFileStore(config: Config): FileStore {
  const root = join(config.DATA_DIR, "files");
  return config.FILES_STORAGE === "s3" ? createS3FileStore(root, s3OptionsOf(config)) : createLocalFileStore(root);
}
