// The administration's REST API: jobs, the mail outbox, backups, health, the audit log and the
// statistics overview, each a call of its area's service (which authorises and audits) rendered as
// JSON with the search envelope (`hits`, `links`) the other searches answer and the spec's times.
import type { Actor } from "../core/actor";
import type { Links, QueryValues } from "../core/links";
import { searchEnvelope } from "../core/paging";
import { formatIsoTime } from "../core/time";
import type { AuditService } from "../audit/service";
import type { AuditEntry } from "../audit/model";
import type { BackupOrigin, BackupService, SnapshotInfo } from "../backup/service";
import type { JobRow, JobsService } from "../jobs/service";
import type { MailService, OutboxMessage } from "../mail/service";
import type { HealthService } from "./health";
import type { StatsOverview } from "../stats/overview";

export interface AdminApiDeps {
  links: Links;
  jobs: Pick<JobsService, "searchJobs" | "readJob" | "retryJob" | "cancelJob">;
  mail: Pick<MailService, "searchOutbox" | "readMail" | "resendMail" | "sendTestMail">;
  backup: Pick<BackupService, "readBackups" | "queueBackup" | "queueVerify">;
  health: HealthService;
  audit: Pick<AuditService, "search">;
  stats: { readOverview(actor: Actor, query: { period?: unknown }): Promise<StatsOverview> };
}

export type AdminApi = ReturnType<typeof createAdminApi>;
/** How an action came in: these routes always answer for the REST API, with the client's address. */
type Origin = BackupOrigin;

const iso = (ms: number | null) => (ms === null || Number.isNaN(ms) ? null : formatIsoTime(ms));
/** A query parameter as one string, or undefined when it is missing, empty or repeated. */
const param = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

export const presentJob = (job: JobRow, links: Links) => ({
  id: job.id,
  name: job.name,
  status: job.status,
  attempts: job.attempts,
  max_attempts: job.maxAttempts,
  payload: job.payload,
  result: job.result ?? null,
  error: job.lastError,
  progress: job.progress ?? null,
  run_at: iso(job.runAt),
  created: iso(job.created),
  updated: iso(job.updated),
  finished: iso(job.finishedAt),
  links: {
    self: links.api(`/administration/jobs/${job.id}`),
    retry: links.api(`/administration/jobs/${job.id}/retry`),
    cancel: links.api(`/administration/jobs/${job.id}/cancel`),
  },
});

export const presentMessage = (m: OutboxMessage, links: Links) => ({
  id: m.id,
  to: m.recipient,
  subject: m.subject,
  body: m.body,
  topic: m.topic,
  status: m.status,
  attempts: m.attempts,
  error: m.lastError,
  given_up: m.givenUp,
  created: iso(m.created),
  sent: iso(m.sentAt),
  links: { self: links.api(`/administration/mail/${m.id}`), resend: links.api(`/administration/mail/${m.id}/resend`) },
});

const presentEntry = (e: AuditEntry) => ({
  id: e.id,
  created: iso(e.at),
  actor: { id: e.actorId, label: e.actorLabel },
  action: e.action,
  target: { type: e.targetType, id: e.targetId },
  details: e.details,
  address: e.address,
  via: e.via,
});

const presentSnapshot = (s: SnapshotInfo, links: Links) => ({
  name: s.name,
  created: iso(s.created),
  bytes: s.bytes,
  records: s.records,
  verify: s.verify ? presentJob(s.verify, links) : null,
  links: { verify: links.api(`/administration/backups/${encodeURIComponent(s.name)}/verify`) },
});

export function createAdminApi(deps: AdminApiDeps) {
  const { links } = deps;
  /** The envelope of a paged list the services answered as rows, total, page and size. */
  const envelope = <T>(path: string, items: T[], total: number, page: { page: number; size: number }, params: QueryValues) =>
    searchEnvelope({ items, total, page: { ...page, offset: (page.page - 1) * page.size }, url: (q) => links.api(path, q), params });

  return {
    async searchJobs(actor: Actor, query: Record<string, unknown>) {
      const status = param(query.status);
      const r = await deps.jobs.searchJobs(actor, { status, page: query.page, size: query.size });
      return envelope(
        "/administration/jobs",
        r.jobs.map((j) => presentJob(j, links)),
        r.total,
        r,
        { status },
      );
    },
    readJob: async (actor: Actor, id: string) => presentJob(await deps.jobs.readJob(actor, Number(id)), links),
    retryJob: async (actor: Actor, id: string, origin: Origin) => presentJob(await deps.jobs.retryJob(actor, Number(id), origin), links),
    cancelJob: async (actor: Actor, id: string, origin: Origin) => presentJob(await deps.jobs.cancelJob(actor, Number(id), origin), links),

    async searchMail(actor: Actor, query: Record<string, unknown>) {
      const filters = { status: param(query.status), q: param(query.q) };
      const r = await deps.mail.searchOutbox(actor, { ...filters, page: query.page, size: query.size });
      return envelope(
        "/administration/mail",
        r.messages.map((m) => presentMessage(m, links)),
        r.total,
        r,
        filters,
      );
    },
    readMail: async (actor: Actor, id: string) => presentMessage(await deps.mail.readMail(actor, Number(id)), links),
    resendMail: async (actor: Actor, id: string, origin: Origin) => presentMessage(await deps.mail.resendMail(actor, Number(id), origin), links),
    sendTestMail: async (actor: Actor, body: unknown, origin: Origin) =>
      presentMessage(await deps.mail.sendTestMail(actor, (body as { to?: unknown } | undefined)?.to, origin), links),

    /** BACKUP_DIR's snapshots (newest first) as hits, with the schedule, the newest backup jobs and the last scheduled one. */
    async readBackups(actor: Actor) {
      const view = await deps.backup.readBackups(actor);
      return {
        backup_dir: view.dir,
        keep: view.keep,
        schedule: view.schedule,
        last_scheduled: view.lastScheduled ? presentJob(view.lastScheduled, links) : null,
        recent: view.backups.map((j) => presentJob(j, links)),
        hits: { hits: view.snapshots.map((s) => presentSnapshot(s, links)), total: view.snapshots.length },
        links: { self: links.api("/administration/backups") },
      };
    },
    queueBackup: async (actor: Actor, origin: Origin) => presentJob(await deps.backup.queueBackup(actor, origin), links),
    queueVerify: async (actor: Actor, name: string, origin: Origin) => presentJob(await deps.backup.queueVerify(actor, name, origin), links),

    async readHealth(actor: Actor) {
      const h = await deps.health.readHealth(actor);
      const index = h.searchIndex;
      return {
        version: h.version,
        commit: h.commit,
        started: iso(h.startedAt),
        uptime_seconds: Math.floor(h.uptimeMs / 1000),
        data_dir: h.dataDir,
        database_bytes: h.databaseBytes,
        file_store_bytes: h.fileStoreBytes,
        disk: h.disk ? { free_bytes: h.disk.freeBytes, total_bytes: h.disk.totalBytes } : null,
        search_index: {
          complete: index.complete,
          records: index.records,
          indexed_records: index.indexedRecords,
          drafts: index.drafts,
          indexed_drafts: index.indexedDrafts,
        },
        process: h.process,
        serving_processes: h.servingProcesses.map((p) => ({ host: p.host, pid: p.pid, started: iso(p.startedAt), last_seen: iso(p.seenAt) })),
        warnings: h.warnings,
      };
    },

    async searchAudit(actor: Actor, query: Record<string, unknown>) {
      const filters = { action: param(query.action), target_type: param(query.target_type), target_id: param(query.target_id) };
      const r = await deps.audit.search(actor, { action: filters.action, targetType: filters.target_type, targetId: filters.target_id, page: query.page, size: query.size });
      return envelope("/administration/audit", r.entries.map(presentEntry), r.total, r, filters);
    },

    async readStatistics(actor: Actor, query: Record<string, unknown>) {
      const o = await deps.stats.readOverview(actor, { period: query.period });
      const top = (list: StatsOverview["mostViewed"]) => list.map((r) => ({ id: r.id, title: r.title, count: r.count, links: { self: links.api(`/records/${r.id}`) } }));
      return {
        period: o.period,
        from: o.from,
        to: o.to,
        totals: { views: o.totals.views, downloads: o.totals.downloads, new_records: o.totals.newRecords },
        buckets: o.buckets.map((b) => ({ key: b.key, views: b.views, downloads: b.downloads, new_records: b.newRecords, storage_bytes: b.storageBytes })),
        most_viewed: top(o.mostViewed),
        most_downloaded: top(o.mostDownloaded),
      };
    },
  };
}
