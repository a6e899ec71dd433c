// An S3 protocol server for tests and benches: s3rver (@20minutes fork: S3 over a local directory,
// checking SigV4 signatures) on 127.0.0.1 and a free port, plus the two calls of S3's multipart API it lacks
// (ListMultipartUploads, AbortMultipartUpload), answered from its own uploads folder. Run as a
// script (`bun test/helpers/s3-server.ts DIR`) it serves until killed and prints its port.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "@20minutes/s3rver";
import { AwsClient } from "aws4fetch";
import { XMLParser } from "fast-xml-parser";

export const S3_BUCKET = "cairn-test";
/** s3rver's one account. */
export const S3_KEY = "S3RVER";

type Ctx = { method: string; path: string; query: Record<string, string>; status: number; body: unknown; get(name: string): string };
type Middleware = (ctx: Ctx, next: () => Promise<void>) => Promise<void>;

/** The configuration keys that put a Cairn on this server's bucket (CAIRN_ environment form with `env`). */
export function s3Settings(endpoint: string, prefix = "") {
  return { FILES_STORAGE: "s3", S3_ENDPOINT: endpoint, S3_BUCKET, S3_REGION: "us-east-1", S3_ACCESS_KEY_ID: S3_KEY, S3_SECRET_ACCESS_KEY: S3_KEY, S3_PREFIX: prefix };
}

export async function startS3Server(dir = mkdtempSync(join(tmpdir(), "cairn-s3-"))) {
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: dir, configureBuckets: [{ name: S3_BUCKET, configs: [] }] });
  const uploadsDir = join(dir, S3_BUCKET, "._S3rver_uploads");
  const uploads = () =>
    existsSync(uploadsDir)
      ? readdirSync(uploadsDir)
          .filter((id) => existsSync(join(uploadsDir, id, "key")))
          .map((uploadId) => ({ key: readFileSync(join(uploadsDir, uploadId, "key"), "utf8"), uploadId }))
      : [];
  // Part uploads wait while held, so a test can stop a Cairn server in the middle of one.
  let hold: { released: Promise<void>; arrived: () => void; release: () => void } | null = null;

  const multipartCalls: Middleware = async (ctx, next) => {
    const [, bucket, ...key] = ctx.path.split("/");
    if (ctx.method === "GET" && key.length === 0 && "uploads" in ctx.query && bucket === S3_BUCKET) {
      const prefix = ctx.query.prefix ?? "";
      const found = uploads().filter((u) => u.key.startsWith(prefix));
      ctx.body = { ListMultipartUploadsResult: { Bucket: bucket, Prefix: prefix, IsTruncated: "false", Upload: found.map((u) => ({ Key: u.key, UploadId: u.uploadId })) } };
      return;
    }
    if (ctx.method === "DELETE" && "uploadId" in ctx.query) {
      const upload = join(uploadsDir, ctx.query.uploadId!.replace(/[^0-9a-f]/g, ""));
      if (!existsSync(upload)) {
        ctx.status = 404;
        ctx.body = { Error: { Code: "NoSuchUpload", Message: "The specified upload does not exist." } };
        return;
      }
      rmSync(upload, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    if (ctx.method === "PUT" && "uploadId" in ctx.query && hold) {
      hold.arrived();
      await hold.released;
    }
    await next();
  };
  // Just before s3rver's router, after its XML encoding of answers.
  const middleware = (server as unknown as { middleware: Middleware[] }).middleware;
  middleware.splice(middleware.length - 1, 0, multipartCalls);
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const client = new Bun.S3Client({ endpoint, bucket: S3_BUCKET, region: "us-east-1", accessKeyId: S3_KEY, secretAccessKey: S3_KEY });

  // Bun's client.list() signs in a way this server rejects: object listings are signed here.
  const signer = new AwsClient({ accessKeyId: S3_KEY, secretAccessKey: S3_KEY, region: "us-east-1", service: "s3" });
  const xml = new XMLParser({ isArray: (name) => name === "Contents", parseTagValue: false });

  return {
    endpoint,
    dir,
    /** Objects under `prefix` (ListObjectsV2): key -> size. */
    async objects(prefix = "") {
      const text = await (await signer.fetch(`${endpoint}/${S3_BUCKET}?list-type=2&prefix=${encodeURIComponent(prefix)}`)).text();
      const contents = (xml.parse(text).ListBucketResult?.Contents ?? []) as { Key: string; Size: string }[];
      return new Map(contents.map((c) => [String(c.Key), Number(c.Size)]));
    },
    /** A plain S3 client on the bucket (Bun's), to look at what Cairn stored. */
    client,
    settings: (prefix = "") => s3Settings(endpoint, prefix),
    /** The same settings as CAIRN_* environment variables, for a Cairn process. */
    env: (prefix = "") => Object.fromEntries(Object.entries(s3Settings(endpoint, prefix)).map(([k, v]) => [`CAIRN_${k}`, v])),
    /** Multipart uploads started and neither completed nor aborted. */
    pendingUploads: uploads,
    /** Holds every part upload from now on, until `release`; `arrived(n)` resolves once n of them are waiting. */
    holdParts() {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let count = 0;
      const waiters: { n: number; resolve: () => void }[] = [];
      hold = {
        released,
        release,
        arrived() {
          count++;
          for (const w of waiters) if (count >= w.n) w.resolve();
        },
      };
      return {
        arrived: (n: number) => new Promise<void>((resolve) => (count >= n ? resolve() : waiters.push({ n, resolve }))),
        release() {
          hold = null;
          release();
        },
      };
    },
    async stop() {
      hold?.release();
      hold = null;
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type S3TestServer = Awaited<ReturnType<typeof startS3Server>>;

/** Bytes that differ everywhere (a wrong offset shows), from a small linear congruential generator. */
export function pseudoRandomBytes(length: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

if (import.meta.main) {
  const server = await startS3Server(process.argv[2] ? mkdtempSync(join(process.argv[2], "s3-")) : undefined);
  console.log(JSON.stringify({ endpoint: server.endpoint, dir: server.dir }));
  process.on("SIGTERM", () => void server.stop().then(() => process.exit(0)));
}
