// The serving processes of one database, as each process sees them: every job worker writes its
// row (server_instances) at start, says it is alive every HEARTBEAT_MS and deletes the row at a
// graceful stop. Several processes share one jobs table (workers of one `cairn serve`, servers on
// several machines): a process starting puts back only the running jobs of ended ones, and a
// clean-up that could take another process's work in progress runs only when no other is alive.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { processAlive } from "../core/process-alive";
import type { Clock } from "../core/time";
import type { Db } from "../db/port";
import * as store from "./store";

export const HEARTBEAT_MS = 10_000;
/** A process silent this long has ended (three heartbeats missed: a stalled event loop is not taken for dead). */
export const SILENT_MS = 3 * HEARTBEAT_MS;

export type Instances = ReturnType<typeof createInstances>;

/** This process's entry among the serving processes; one per job worker (tests run several apps in one process). */
export function createInstances(db: Db, clock: Clock, log: (line: string) => void) {
  const host = hostname();
  const name = `${host}/${process.pid}/${randomBytes(6).toString("hex")}`;
  let timer: ReturnType<typeof setInterval> | null = null;

  const write = () => store.upsertInstance(db, { name, host, pid: process.pid, startedAt: clock.now(), seenAt: clock.now() });

  async function heartbeat() {
    try {
      if (!(await store.touchInstance(db, name, clock.now()))) await write();
    } catch (error) {
      log(`[jobs] could not say this process is alive: ${(error as Error).message}`);
    }
  }

  /** The live processes' rows, this one's included; an ended one's row is deleted. */
  async function live(): Promise<store.InstanceRow[]> {
    await store.deleteInstancesSeenBefore(db, clock.now() - SILENT_MS);
    const rows = await store.listInstances(db);
    // A process on this host whose pid is gone ended now, not SILENT_MS from now (a crash restarted at once).
    const ended = rows.filter((i) => i.name !== name && i.host === host && !processAlive(i.pid));
    for (const row of ended) await store.deleteInstance(db, row.name);
    return rows.filter((i) => !ended.includes(i));
  }

  return {
    /** What this process's claims carry (jobs.claimed_by). */
    name,

    async start() {
      await write();
      if (timer) clearInterval(timer);
      timer = setInterval(() => void heartbeat(), HEARTBEAT_MS);
      (timer as { unref?: () => void }).unref?.();
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await store.deleteInstance(db, name).catch(() => {});
    },

    /** Between start() and stop(). */
    registered: () => timer !== null,

    /** A test of whether a job's claimer has ended, against the processes alive now. */
    async endedTest(): Promise<(claimedBy: string | null) => boolean> {
      const names = new Set((await live()).map((i) => i.name));
      // No name: claimed by a Cairn that did not name claimers, which ran one server at a time.
      return (claimedBy) => claimedBy === null || !names.has(claimedBy);
    },

    /** How many other processes serve this database now. */
    others: async () => (await live()).filter((i) => i.name !== name).length,

    /** The processes serving this database now, this one included, oldest first. */
    list: async () => (await live()).sort((a, b) => a.startedAt - b.startedAt || a.name.localeCompare(b.name)),
  };
}
