// @20minutes/s3rver (the maintained fork of s3rver, which checks SigV4 signatures) ships no types:
// the part of its API the tests' S3 server uses (test/helpers/s3-server.ts).
declare module "@20minutes/s3rver" {
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
  }
  class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
  export default S3rver;
}
