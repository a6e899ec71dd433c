// `cairn jobs list|run|retry|cancel`.
import { systemActor } from "../core/actor";
import { progressText } from "../jobs/progress";
import { parse, printTable, UsageError, when, type Command } from "./args";
import { withServices } from "./services";

export const jobsCommand: Command = {
  name: "jobs",
  summary: "List background jobs, run a scheduled job now, retry a failed one or cancel a queued one.",
  usage: `cairn jobs list [--limit N]
    The job kinds with their schedules, then the most recent jobs.
cairn jobs run NAME
    Runs the job now in this process and prints its result; works beside a running server.
cairn jobs retry ID
    Queues a failed job again, its attempts counted afresh (a running server's worker takes it).
cairn jobs cancel ID
    Gives up a queued job before it runs (it is failed, with the reason as its error).
    Retry and cancel are recorded in the audit log (via cli).`,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "list") {
      const { values } = parse(rest, { limit: { type: "string" } });
      const limit = values.limit === undefined ? 20 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError("--limit must be a whole number of 1 or more");
      await withServices(values, async (s) => {
        const kinds = await s.jobs.listKinds(systemActor);
        printTable(
          kinds.map((k) => ({ ...k, next_run: when(k.nextRunAt), last_run: when(k.lastRunAt) })),
          ["name", "schedule", "next_run", "last_run", "description"],
        );
        console.log("");
        const jobs = await s.jobs.listJobs(systemActor, limit);
        printTable(
          jobs.map((j) => ({
            id: j.id,
            name: j.name,
            status: j.status,
            attempts: `${j.attempts}/${j.maxAttempts}`,
            run_at: when(j.runAt),
            finished: when(j.finishedAt),
            progress: j.progress ? progressText(j.progress) : undefined,
            error: j.lastError?.slice(0, 80),
          })),
          ["id", "name", "status", "attempts", "run_at", "finished", "progress", "error"],
        );
      });
      return 0;
    }
    if (sub === "run") {
      const { values, positionals } = parse(rest, {}, 1);
      const name = positionals[0];
      if (!name) throw new UsageError("jobs run needs a job NAME (see jobs list)");
      const job = await withServices(values, async (s) => {
        if (!s.jobs.registry.get(name)) {
          throw new UsageError(
            `no job named '${name}' (known: ${s.jobs.registry
              .list()
              .map((d) => d.name)
              .join(", ")})`,
          );
        }
        return await s.jobs.runNow(systemActor, name);
      });
      if (job.status !== "succeeded") {
        console.error(`cairn: job ${name} failed: ${job.lastError}`);
        return 1;
      }
      console.log(JSON.stringify({ job: job.id, name, status: job.status, result: job.result, ...(job.progress ? { progress: job.progress } : {}) }));
      return 0;
    }
    if (sub === "retry" || sub === "cancel") {
      const { values, positionals } = parse(rest, {}, 1);
      const id = jobId(positionals[0], sub);
      const job = await withServices(values, (s) => (sub === "retry" ? s.jobs.retryJob : s.jobs.cancelJob)(systemActor, id, { via: "cli", address: null }));
      console.log(`${sub}: job ${job.id} (${job.name}): ${job.status}${job.lastError && job.status === "failed" ? `: ${job.lastError}` : ""}`);
      return 0;
    }
    throw new UsageError(sub ? `unknown jobs command '${sub}' (list, run, retry, cancel)` : "jobs needs a command: list, run, retry or cancel");
  },
};

/** A job's id as typed: a whole number of 1 or more. */
function jobId(raw: string | undefined, sub: string): number {
  if (raw === undefined) throw new UsageError(`jobs ${sub} needs a job ID (see jobs list)`);
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new UsageError(`jobs ${sub}: '${raw}' is not a job ID (a whole number, see jobs list)`);
  return Number(raw);
}
