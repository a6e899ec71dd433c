// Administration → Jobs: the queue (queued, running, succeeded, failed with their error text),
// filtered by state and paged, Retry for a failed job and Cancel (confirmed) for a queued one; and
// the schedule with each scheduled job's last and next run. A job that reports progress shows it
// as a bar with "done of total" beside it (the Backups screen shows its jobs' the same way).
import { progressText } from "../../jobs/progress";
import type { JobRow } from "../../jobs/service";
import { PostButton } from "../forms";
import type { PageContext } from "../layout";
import { DataTable } from "../table";
import { AdminPage, AdminPager, ConfirmStep, queryOf, TableBox, when } from "./frame";

export const JOBS = "/administration/jobs";

const STATE_LABELS: Record<string, string> = { queued: "Queued", running: "Running", succeeded: "Succeeded", failed: "Failed" };

export interface JobKind {
  name: string;
  description: string;
  schedule: string;
  nextRunAt: number | null;
  lastRunAt: number | null;
}

function StateFilter({ status }: { status: string }) {
  const choices: [string, string][] = [["", "All"], ...Object.entries(STATE_LABELS)];
  return (
    <nav class="filters" aria-label="Job states">
      {choices.map(([value, label]) => (
        <a href={JOBS + queryOf({ status: value })} aria-current={value === status ? "page" : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}

/** A job's last progress report: a bar named after the job and the same numbers as text ("—" without one). */
export function JobProgress({ job }: { job: JobRow }) {
  const progress = job.progress;
  if (!progress) return <>—</>;
  const label = `Progress of job ${job.id} (${job.name})`;
  return (
    <span class="job-progress">
      {progress.total ? <progress max={String(progress.total)} value={String(Math.min(progress.done, progress.total))} aria-label={label} /> : <progress aria-label={label} />}
      <span class="progress-text">{progressText(progress)}</span>
    </span>
  );
}

function JobAction({ ctx, job }: { ctx: PageContext; job: JobRow }) {
  if (job.status === "failed") return <PostButton ctx={ctx} action={`${JOBS}/${job.id}/retry`} label={`Retry job ${job.id}`} secondary />;
  if (job.status === "queued") {
    return (
      <a class="button secondary" href={`${JOBS}/${job.id}/cancel`}>
        Cancel job {job.id}
      </a>
    );
  }
  return <>—</>;
}

function QueueTable({ ctx, jobs }: { ctx: PageContext; jobs: JobRow[] }) {
  return (
    <TableBox label="Table of jobs">
      <DataTable caption="Jobs, newest first" columns={["Job", "Kind", "State", "Attempts", "Run at", "Finished", "Progress", "Error", "Action"]}>
        {jobs.map((job) => (
          <tr data-job-id={String(job.id)}>
            <th scope="row">{String(job.id)}</th>
            <td>{job.name}</td>
            <td>{STATE_LABELS[job.status] ?? job.status}</td>
            <td>{`${job.attempts} of ${job.maxAttempts}`}</td>
            <td>{when(job.runAt)}</td>
            <td>{when(job.finishedAt)}</td>
            <td>
              <JobProgress job={job} />
            </td>
            <td class="error-text">{job.lastError ?? "—"}</td>
            <td>
              <JobAction ctx={ctx} job={job} />
            </td>
          </tr>
        ))}
      </DataTable>
    </TableBox>
  );
}

function ScheduleTable({ kinds }: { kinds: JobKind[] }) {
  const scheduled = kinds.filter((k) => k.schedule !== "on demand");
  return (
    <TableBox label="Table of scheduled jobs">
      <DataTable caption="Scheduled jobs" columns={["Kind", "Runs", "Last run", "Next run"]}>
        {scheduled.map((kind) => (
          <tr>
            <th scope="row">
              {kind.name}
              <span class="muted block">{kind.description}</span>
            </th>
            <td>{kind.schedule}</td>
            <td>{kind.lastRunAt === null ? "Not yet" : when(kind.lastRunAt)}</td>
            <td>{kind.nextRunAt === null ? "When the server starts" : when(kind.nextRunAt)}</td>
          </tr>
        ))}
      </DataTable>
    </TableBox>
  );
}

export function JobsPage(props: {
  ctx: PageContext;
  mailOff: boolean;
  status: string;
  result: { jobs: JobRow[]; total: number; page: number; size: number };
  kinds: JobKind[];
  notice?: string;
}) {
  const { ctx, status, result } = props;
  return (
    <AdminPage ctx={ctx} title="Jobs" screen={JOBS} mailOff={props.mailOff} notice={props.notice}>
      <section aria-labelledby="queue">
        <h2 id="queue">Queue</h2>
        <StateFilter status={status} />
        {result.jobs.length === 0 ? <p class="muted">No jobs{status ? ` in this state` : ""}.</p> : <QueueTable ctx={ctx} jobs={result.jobs} />}
        <AdminPager page={result.page} size={result.size} total={result.total} href={(page) => JOBS + queryOf({ status, page: page === 1 ? null : page })} />
      </section>
      <section aria-labelledby="schedule">
        <h2 id="schedule">Schedule</h2>
        <ScheduleTable kinds={props.kinds} />
      </section>
    </AdminPage>
  );
}

export function CancelJobPage({ ctx, mailOff, job }: { ctx: PageContext; mailOff: boolean; job: JobRow }) {
  return (
    <AdminPage ctx={ctx} title={`Cancel job ${job.id}`} screen={JOBS} mailOff={mailOff}>
      <ConfirmStep
        ctx={ctx}
        action={`${JOBS}/${job.id}/cancel`}
        question={`Cancel job ${job.id} (${job.name})?`}
        detail={<p>It will not run; it is kept as failed, and can be retried later.</p>}
        button="Cancel the job"
        back={JOBS}
      />
    </AdminPage>
  );
}
