// The `vocabulary-import` job: an uploaded ROR dump streamed to the data directory and imported
// with its progress stored; ROR's newest release downloaded from a local stand-in of the publisher
// (the signposting linkset InvenioRDM reads, and a records search) and the JSON inside its zip
// imported; a run cut by a shutdown resumes where it got to instead of starting again; bad dumps
// and bad releases fail with a clear error and leave the vocabulary readable.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemActor } from "../../src/core/actor";
import { runClaimedJob } from "../../src/jobs/runner";
import * as jobStore from "../../src/jobs/store";
import { importsRootOf, VOCABULARY_IMPORT_JOB } from "../../src/vocabularies/import-job";
import { createTestApp, type TestApp } from "../helpers/app";
import { cleanEnv, MAIN } from "../helpers/cli";
import { rorOrgs, startPublisher, writeRorDump, zipFiles, type PublisherServer } from "../helpers/ror-dump";

let app: TestApp;
let publisher: PublisherServer;
let work: string;

const streamOf = (path: string) => Bun.file(path).stream() as ReadableStream<Uint8Array>;
const job = async (id: number) => (await jobStore.findJobById(app.services.deps.db, id))!;
const total = async (type: string) => (await app.call("GET", `/api/${type}?size=1`)).json.hits.total as number;
const importFolders = () => (existsSync(importsRootOf(app.config)) ? readdirSync(importsRootOf(app.config)) : []);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "cairn-ror-"));
  // The release: ROR's zip holds the v1 and v2 dumps; InvenioRDM reads the *_schema_v2.json one.
  writeRorDump(work, "v9.99-2026-11-20-ror-data.json", [{ id: "https://ror.org/0v1only00", name: "A schema v1 record" }]);
  writeRorDump(work, "v9.99-2026-11-20-ror-data_schema_v2.json", rorOrgs(4, "Quokka Funder", 101));
  const zip = zipFiles(work, "release.zip", ["v9.99-2026-11-20-ror-data.json", "v9.99-2026-11-20-ror-data_schema_v2.json"]);
  publisher = startPublisher(zip);
  app = await createTestApp({ VOCABULARIES_ROR_DUMP_URL: publisher.recordUrl });
});
afterAll(async () => {
  await app.close();
  await publisher.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("an uploaded dump", () => {
  test("is streamed to the data directory, imported by the job with its progress stored, and its folder removed afterwards", async () => {
    const dump = writeRorDump(work, "upload.json", rorOrgs(5));
    const queued = await app.services.vocabularyImports.queueUpload(systemActor, "affiliations", "v2-ror-data_schema_v2.json", streamOf(dump), { via: "cli", address: null });
    expect(queued).toMatchObject({ name: VOCABULARY_IMPORT_JOB, status: "queued", maxAttempts: 1 });
    expect(queued.payload).toMatchObject({ type: "affiliations", source: "upload", file: "dump.json", name: "v2-ror-data_schema_v2.json" });
    expect(importFolders()).toEqual([(queued.payload as { folder: string }).folder]);

    await app.services.worker.drain();
    const done = await job(queued.id);
    expect(done.status).toBe("succeeded");
    expect(done.result).toEqual({ type: "affiliations", source: "upload", name: "v2-ror-data_schema_v2.json", processed: 5, created: 5, updated: 0, unchanged: 0, skipped: {} });
    const size = Bun.file(dump).size;
    expect(done.progress).toEqual({ done: size, total: size, message: "entries read" });
    expect(await total("affiliations")).toBe(5);
    const read = await app.call("GET", "/api/affiliations/0test0003");
    expect(read.json).toMatchObject({ id: "0test0003", name: "Wombat University 03", acronym: "WU0", country: "GB" });
    expect(importFolders()).toEqual([]);
  });

  test("whose name fits no reader of the type is refused before anything is stored", async () => {
    const dump = writeRorDump(work, "subjects.json", rorOrgs(1));
    const refused = app.services.vocabularyImports.queueUpload(systemActor, "subjects", "subjects.json", streamOf(dump), { via: "cli", address: null });
    await expect(refused).rejects.toMatchObject({ status: 400, message: expect.stringContaining("subjects.json is not a subjects dump") });
    await expect(app.services.vocabularyImports.queueUpload(systemActor, "licenses", "x.csv", streamOf(dump), { via: "cli", address: null })).rejects.toMatchObject({
      status: 400,
      message: "type: Must be one of: affiliations, funders, names, awards, subjects.",
    });
    expect(importFolders()).toEqual([]);
    expect((await app.services.jobs.listJobsNamed(systemActor, VOCABULARY_IMPORT_JOB)).length).toBe(1);
  });

  test("that is not a ROR dump fails its job with a clear error, and the vocabulary reads as before", async () => {
    const bad = join(work, "bad.json");
    writeFileSync(bad, '{"not": "an array"}');
    const queued = await app.services.vocabularyImports.queueUpload(systemActor, "affiliations", "bad.json", streamOf(bad), { via: "cli", address: null });
    await app.services.worker.drain();
    const failed = await job(queued.id);
    expect(failed.status).toBe("failed");
    expect(failed.lastError).toBe("bad.json could not be imported into affiliations: ROR dump dump.json: expected a JSON array of organisations at the top level");
    // The dump stays for a retry from the Jobs screen (which resumes it).
    expect(importFolders()).toEqual([(queued.payload as { folder: string }).folder]);
    expect(await total("affiliations")).toBe(5);
    expect((await app.call("GET", "/api/affiliations?q=wombat&size=10")).json.hits.hits.map((h: { id: string }) => h.id)).toHaveLength(5);
  });
});

describe("a run cut by a shutdown", () => {
  test("is released to the queue with its progress, and the next run goes on from the entries written instead of starting again", async () => {
    const dump = writeRorDump(work, "resume.json", rorOrgs(6, "Numbat Institute"));
    const queued = await app.services.vocabularyImports.queueUpload(systemActor, "funders", "resume.json", streamOf(dump), { via: "cli", address: null });
    // The worker's stop aborts the job's signal: here after its third entry.
    const definition = app.services.jobs.registry.get(VOCABULARY_IMPORT_JOB)!;
    const run = definition.run;
    const abort = new AbortController();
    let reports = 0;
    definition.run = (payload, ctx) =>
      run(payload, {
        ...ctx,
        progress: async (p) => {
          await ctx.progress(p);
          if (++reports === 3) abort.abort();
        },
      });
    const now = app.clock.now();
    const claimed = (await jobStore.claimNextJob(app.services.deps.db, now, now + 60_000))!;
    expect(claimed.id).toBe(queued.id);
    const released = await runClaimedJob({ db: app.services.deps.db, clock: app.clock, registry: app.services.jobs.registry, log: () => {} }, claimed, abort.signal);
    definition.run = run;

    expect({ status: released.status, attempts: released.attempts, result: released.result }).toEqual({ status: "queued", attempts: 0, result: null });
    expect(released.progress).toMatchObject({ message: "entries read" });
    expect(released.progress!.done).toBeGreaterThan(0);
    expect(await total("funders")).toBe(3);

    await app.services.worker.drain();
    const done = await job(queued.id);
    expect(done.status).toBe("succeeded");
    // Started again from zero, the second run would have found three unchanged entries.
    expect(done.result).toMatchObject({ processed: 6, created: 6, updated: 0, unchanged: 0 });
    expect(await total("funders")).toBe(6);
    expect((await app.call("GET", "/api/funders/0test0006")).json.name).toBe("Numbat Institute 06");
  });
});

describe("ROR's newest release, downloaded from its publisher", () => {
  test("through the signposting linkset: the zip is downloaded and its *_schema_v2.json imported", async () => {
    publisher.requests.length = 0;
    const queued = await app.services.vocabularyImports.queueRelease(systemActor, "funders", { via: "cli", address: null });
    expect(queued.payload).toMatchObject({ type: "funders", source: "release" });
    await app.services.worker.drain();
    const done = await job(queued.id);
    expect(done.status).toBe("succeeded");
    expect(done.result).toMatchObject({ source: "release", processed: 4, created: 4, skipped: {} });
    expect(publisher.requests).toEqual(["GET /api/records/6347574", "GET /records/6347574/files/v9.99-2026-11-20-ror-data.zip/content"]);
    expect((await app.call("GET", "/api/funders/0test0102")).json).toMatchObject({
      name: "Quokka Funder 02",
      identifiers: [{ scheme: "ror", identifier: "0test0102" }, { scheme: "grid" }],
    });
    expect(importFolders()).not.toContain((queued.payload as { folder: string }).folder);
  });

  test("through a community's records search, newest first", async () => {
    const configured = app.config.VOCABULARIES_ROR_DUMP_URL;
    app.config.VOCABULARIES_ROR_DUMP_URL = publisher.searchUrl;
    try {
      const queued = await app.services.vocabularyImports.queueRelease(systemActor, "affiliations", { via: "cli", address: null });
      await app.services.worker.drain();
      expect((await job(queued.id)).result).toMatchObject({ processed: 4, created: 4 });
      expect((await app.call("GET", "/api/affiliations/0test0104")).json.name).toBe("Quokka Funder 04");
    } finally {
      app.config.VOCABULARIES_ROR_DUMP_URL = configured;
    }
  });

  test("a release that cannot be had fails the attempt with what went wrong, and is retried later", async () => {
    const configured = app.config.VOCABULARIES_ROR_DUMP_URL;
    app.config.VOCABULARIES_ROR_DUMP_URL = publisher.recordUrl.replace("/6347574", "/404");
    try {
      const queued = await app.services.vocabularyImports.queueRelease(systemActor, "funders", { via: "cli", address: null });
      await app.services.worker.drain();
      const tried = await job(queued.id);
      expect({ status: tried.status, attempts: tried.attempts, lastError: tried.lastError }).toEqual({
        status: "queued",
        attempts: 1,
        lastError: `${app.config.VOCABULARIES_ROR_DUMP_URL} answered 404 Not Found`,
      });
      expect(await total("funders")).toBe(10);
      await app.services.jobs.cancelJob(systemActor, queued.id, { via: "cli" });
    } finally {
      app.config.VOCABULARIES_ROR_DUMP_URL = configured;
    }
  });

  test("only for ROR's vocabularies", async () => {
    await expect(app.services.vocabularyImports.queueRelease(systemActor, "names", { via: "cli", address: null })).rejects.toMatchObject({
      status: 400,
      message: "type: the newest release is downloaded for affiliations and funders (ROR) only.",
    });
  });
});

describe("`cairn vocabularies update`", () => {
  test("downloads ROR's newest release and imports it in the command's process, audited via cli", async () => {
    const data = join(work, "cli-data");
    // Spawned, not run synchronously: the publisher answers from this process's event loop.
    const child = Bun.spawn([process.execPath, "--preload", join(import.meta.dir, "..", "helpers", "fake-now.ts"), MAIN, "vocabularies", "update", "funders", "--data", data], {
      env: { ...cleanEnv(), FAKE_NOW_MS: String(app.clock.now()), CAIRN_VOCABULARIES_ROR_DUMP_URL: publisher.recordUrl },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [code, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: "funders: created 4, updated 0, unchanged 0, skipped 0\n", stderr: "" });
    const db = new Database(join(data, "cairn.db"), { readonly: true });
    expect(db.query("SELECT action, target_id AS target, via FROM audit_log").all()).toEqual([{ action: "vocabulary.import", target: "funders", via: "cli" }]);
    expect(db.query("SELECT count(*) AS n FROM vocabulary_entries WHERE type = 'funders'").get()).toEqual({ n: 4 });
    db.close();
    const bad = Bun.spawnSync([process.execPath, MAIN, "vocabularies", "update", "names", "--data", data], { env: cleanEnv() });
    expect({ code: bad.exitCode, stderr: bad.stderr.toString() }).toEqual({
      code: 2,
      stderr: "cairn: vocabularies update needs a TYPE: affiliations or funders (from ROR's newest release)\n",
    });
  });
});
