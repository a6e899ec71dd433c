// HTTP routes of the administration's REST API (administrators: 401 anonymous, 403 others), each
// one call of the administration API (api.ts), actions audited with `via: "api"` and the address.
import { Elysia } from "elysia";
import type { AddressOf, PeerInfo } from "../core/client-address";
import { actionPayloadBody } from "../core/body";
import type { ActorContext } from "../core/http";
import type { AdminApi } from "./api";

const tags = ["Administration"];

export const adminRoutes = (http: ActorContext, api: AdminApi, addressOf: AddressOf) => {
  const origin = (request: Request, server: PeerInfo | null) => ({ via: "api" as const, address: addressOf(request, server) });
  return new Elysia({ prefix: "/api/administration" })
    .use(http)
    .get("/jobs", ({ actor, query }) => api.searchJobs(actor, query), {
      detail: { summary: "Background jobs, newest first, with a status filter (queued, running, succeeded, failed); paged (administrators)", tags },
    })
    .get("/jobs/:id", ({ actor, params }) => api.readJob(actor, params.id), {
      detail: { summary: "One background job with its error text and progress (administrators)", tags },
    })
    .post("/jobs/:id/retry", ({ actor, params, request, server }) => api.retryJob(actor, params.id, origin(request, server)), {
      body: actionPayloadBody,
      detail: { summary: "Queue a failed job again, its attempts counted afresh (administrators)", tags },
    })
    .post("/jobs/:id/cancel", ({ actor, params, request, server }) => api.cancelJob(actor, params.id, origin(request, server)), {
      body: actionPayloadBody,
      detail: { summary: "Cancel a queued job before it runs (administrators)", tags },
    })
    .get("/mail", ({ actor, query }) => api.searchMail(actor, query), {
      detail: { summary: "The mail outbox, newest first, with status (pending, sent, failed) and q filters; paged (administrators)", tags },
    })
    .post(
      "/mail/test",
      async ({ actor, body, request, server, set }) => {
        const message = await api.sendTestMail(actor, body, origin(request, server));
        set.status = 201;
        return message;
      },
      { detail: { summary: 'Send a test message: {"to": "you@example.org"} (administrators)', tags } },
    )
    .get("/mail/:id", ({ actor, params }) => api.readMail(actor, params.id), {
      detail: { summary: "One message of the outbox with the SMTP server's last answer (administrators)", tags },
    })
    .post("/mail/:id/resend", ({ actor, params, request, server }) => api.resendMail(actor, params.id, origin(request, server)), {
      body: actionPayloadBody,
      detail: { summary: "Send a pending or failed message again now (administrators)", tags },
    })
    .get("/backups", ({ actor }) => api.readBackups(actor), {
      detail: { summary: "BACKUP_DIR's snapshots, the schedule and the latest backup jobs (administrators)", tags },
    })
    .post(
      "/backups",
      async ({ actor, request, server, set }) => {
        const job = await api.queueBackup(actor, origin(request, server));
        set.status = 202;
        return job;
      },
      { body: actionPayloadBody, detail: { summary: "Back up to BACKUP_DIR now: queues the backup job (administrators)", tags } },
    )
    .post(
      "/backups/:name/verify",
      async ({ actor, params, request, server, set }) => {
        const job = await api.queueVerify(actor, params.name, origin(request, server));
        set.status = 202;
        return job;
      },
      { body: actionPayloadBody, detail: { summary: "Verify a snapshot of BACKUP_DIR: queues the verify job (administrators)", tags } },
    )
    .get("/health", ({ actor }) => api.readHealth(actor), {
      detail: { summary: "Version, uptime, sizes, free disk, the search index's completeness and configuration warnings (administrators)", tags },
    })
    .get("/audit", ({ actor, query }) => api.searchAudit(actor, query), {
      detail: { summary: "The audit log of administrators' actions, newest first, with action, target_type and target_id filters; paged (administrators)", tags },
    })
    .get("/statistics", ({ actor, query }) => api.readStatistics(actor, query), {
      detail: { summary: "Views, downloads, new records and storage per day (period=days) or month (period=months), and the top records (administrators)", tags },
    });
};
