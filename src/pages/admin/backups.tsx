// Administration → Backups: the snapshots in BACKUP_DIR (when taken, their size, whether a
// verification found them sound), the last scheduled backup's result and the newest runs;
// "Back up now" and "Verify" queue jobs whose state shows here (refresh the page to follow them).
// Without BACKUP_DIR the screen says how to set it and offers nothing to do.
import type { SnapshotInfo, VerifyResult } from "../../backup/service";
import type { JobRow } from "../../jobs/service";
import { PostButton } from "../forms";
import type { PageContext } from "../layout";
import { DataTable } from "../table";
import { AdminPage, Facts, bytes, TableBox, when } from "./frame";
import { JobProgress } from "./jobs";

export const BACKUPS = "/administration/backups";

const STATE_LABELS: Record<string, string> = { queued: "Queued", running: "Running", succeeded: "Succeeded", failed: "Failed" };

export interface BackupsView {
  dir: string | null;
  keep: number | null;
  schedule: string;
  snapshots: SnapshotInfo[];
  /** The newest backup jobs, newest first. */
  backups: JobRow[];
  lastScheduled: JobRow | null;
}

const unfinished = (job: JobRow | null | undefined) => !!job && (job.status === "queued" || job.status === "running");
const dateOf = (ms: number) => (Number.isFinite(ms) ? when(ms) : "Unknown (its manifest cannot be read)");

/** Whether a snapshot was verified, and what it came to. */
export function verifiedText(job: JobRow | null): string {
  if (!job) return "Not verified yet";
  if (job.status === "queued") return "Verification queued";
  if (job.status === "running") return "Verifying…";
  if (job.status === "failed") return `Verification failed: ${job.lastError ?? "no reason given"}`;
  const result = job.result as VerifyResult | null;
  const problems = result?.problems ?? [];
  return problems.length === 0
    ? `Verified ${when(job.finishedAt)}: no problems`
    : `Verified ${when(job.finishedAt)}: ${problems.length} problem${problems.length === 1 ? "" : "s"}: ${problems.join("; ")}`;
}

/** What a backup job wrote (its result's snapshot name), if it succeeded. */
const snapshotOfJob = (job: JobRow) => (job.status === "succeeded" ? ((job.result as { snapshot?: string } | null)?.snapshot ?? "—") : "—");

function NotConfigured() {
  return (
    <section class="card" aria-labelledby="not-configured">
      <h2 id="not-configured">Backups are not set up</h2>
      <p>
        BACKUP_DIR is empty, so no backup is scheduled and none can be started here. Set it to a folder outside the data directory, in <code>cairn.toml</code> (
        <code>BACKUP_DIR = "/backups/cairn"</code>) or as the environment variable <code>CAIRN_BACKUP_DIR</code>, and restart Cairn. BACKUP_SCHEDULE says when backups run (daily by
        default) and BACKUP_KEEP how many snapshots are kept.
      </p>
    </section>
  );
}

function LastScheduled({ job, schedule }: { job: JobRow | null; schedule: string }) {
  const facts: [string, string][] = job
    ? [
        ["Runs", schedule],
        ["Last run", when(job.created)],
        ["State", STATE_LABELS[job.status] ?? job.status],
        ["Finished", when(job.finishedAt)],
        ["Snapshot", snapshotOfJob(job)],
        ["Error", job.lastError ?? "—"],
      ]
    : [
        ["Runs", schedule],
        ["Last run", "Not yet"],
      ];
  return (
    <section aria-labelledby="last-scheduled">
      <h2 id="last-scheduled">Last scheduled backup</h2>
      <Facts facts={facts} classOf={(term, value) => (term === "Error" && value !== "—" ? "error-text" : undefined)} />
    </section>
  );
}

function BackUpNow({ ctx, backups }: { ctx: PageContext; backups: JobRow[] }) {
  const busy = backups.find(unfinished);
  return (
    <section class="card" aria-labelledby="back-up-now">
      <h2 id="back-up-now">Back up now</h2>
      {busy ? (
        <>
          <p role="status">
            A backup is {busy.status} (job {busy.id}). Refresh the page to follow it.
          </p>
          {busy.progress ? <JobProgress job={busy} /> : null}
        </>
      ) : (
        <>
          <p>Queues a backup to BACKUP_DIR at once, as the schedule does; it shows in the list below as it runs.</p>
          <PostButton ctx={ctx} action={`${BACKUPS}/run`} label="Back up now" />
        </>
      )}
    </section>
  );
}

function RecentRuns({ backups }: { backups: JobRow[] }) {
  return (
    <section aria-labelledby="recent-runs">
      <h2 id="recent-runs">Recent backups</h2>
      {backups.length === 0 ? (
        <p class="muted">No backup has run yet.</p>
      ) : (
        <TableBox label="Table of recent backups">
          <DataTable caption="Backup jobs, newest first" columns={["Job", "Queued", "State", "Progress", "Finished", "Snapshot", "Error"]}>
            {backups.map((job) => (
              <tr data-backup-job={String(job.id)}>
                <th scope="row">{String(job.id)}</th>
                <td>{when(job.created)}</td>
                <td>{STATE_LABELS[job.status] ?? job.status}</td>
                <td>
                  <JobProgress job={job} />
                </td>
                <td>{when(job.finishedAt)}</td>
                <td>{snapshotOfJob(job)}</td>
                <td class="error-text">{job.lastError ?? "—"}</td>
              </tr>
            ))}
          </DataTable>
        </TableBox>
      )}
    </section>
  );
}

function Snapshots({ ctx, snapshots }: { ctx: PageContext; snapshots: SnapshotInfo[] }) {
  return (
    <section aria-labelledby="snapshots">
      <h2 id="snapshots">Snapshots</h2>
      {snapshots.length === 0 ? (
        <p class="muted">No snapshots in BACKUP_DIR yet.</p>
      ) : (
        <TableBox label="Table of snapshots">
          <DataTable caption="Snapshots in BACKUP_DIR, newest first" columns={["Snapshot", "Taken", "Size", "Records", "Verified", "Action"]}>
            {snapshots.map((s) => (
              <tr data-snapshot={s.name}>
                <th scope="row">{s.name}</th>
                <td>{dateOf(s.created)}</td>
                <td>{bytes(s.bytes)}</td>
                <td>{String(s.records)}</td>
                <td>
                  {verifiedText(s.verify)}
                  {s.verify?.status === "running" && s.verify.progress ? <JobProgress job={s.verify} /> : null}
                </td>
                <td>{unfinished(s.verify) ? "—" : <PostButton ctx={ctx} action={`${BACKUPS}/${encodeURIComponent(s.name)}/verify`} label={`Verify ${s.name}`} secondary />}</td>
              </tr>
            ))}
          </DataTable>
        </TableBox>
      )}
    </section>
  );
}

export function BackupsPage({ ctx, mailOff, view, notice }: { ctx: PageContext; mailOff: boolean; view: BackupsView; notice?: string }) {
  return (
    <AdminPage ctx={ctx} title="Backups" screen={BACKUPS} mailOff={mailOff} notice={notice}>
      {view.dir === null ? (
        <NotConfigured />
      ) : (
        <>
          <p>
            Backups go to <code>{view.dir}</code>
            {view.keep === null ? ", all of them kept." : `, keeping the newest ${view.keep}.`}
          </p>
          <LastScheduled job={view.lastScheduled} schedule={view.schedule} />
          <BackUpNow ctx={ctx} backups={view.backups} />
          <RecentRuns backups={view.backups} />
          <Snapshots ctx={ctx} snapshots={view.snapshots} />
        </>
      )}
    </AdminPage>
  );
}
