// Jobs: the queue and the schedule, retry, cancel (confirmed).
import { Elysia } from "elysia";
import { conflict } from "../../core/errors";
import type { ActorContext } from "../../core/http";
import { checkCsrf, formOf, seeOther } from "../http";
import { idOf, renderAdmin } from "./frame";
import { CancelJobPage, JOBS, JobsPage } from "./jobs";
import { text, type AdminKit } from "./kit";

export const jobsRoutes = (http: ActorContext, kit: AdminKit) => {
  const { deps } = kit;
  const { jobs } = kit.services;
  const notices: Record<string, string> = { retried: "The job was queued again.", cancelled: "The job was cancelled." };
  return new Elysia()
    .use(http)
    .get(JOBS, async ({ actor, request, query }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const status = text(query.status);
        const [result, kinds] = [await jobs.searchJobs(actor, { status, page: query.page, size: query.size }), await jobs.listKinds(actor)];
        return <JobsPage ctx={ctx} mailOff={kit.mailOff()} status={status} result={result} kinds={kinds} notice={notices[text(query.done)]} />;
      }),
    )
    .get(`${JOBS}/:id/cancel`, async ({ actor, request, params }) =>
      renderAdmin(deps, actor, request, async (ctx) => {
        const job = await jobs.readJob(actor, idOf(params.id, "job"));
        if (job.status !== "queued") throw conflict(`Job ${job.id} is ${job.status}: only a queued job is cancelled.`);
        return <CancelJobPage ctx={ctx} mailOff={kit.mailOff()} job={job} />;
      }),
    )
    .post(`${JOBS}/:id/cancel`, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async () => {
        checkCsrf(actor, formOf(body));
        await jobs.cancelJob(actor, idOf(params.id, "job"), kit.origin(request, server));
        return seeOther(`${JOBS}?done=cancelled`);
      }),
    )
    .post(`${JOBS}/:id/retry`, async ({ actor, request, params, body, server }) =>
      renderAdmin(deps, actor, request, async () => {
        checkCsrf(actor, formOf(body));
        await jobs.retryJob(actor, idOf(params.id, "job"), kit.origin(request, server));
        return seeOther(`${JOBS}?done=retried`);
      }),
    );
};

export const JOBS_FORM_ROUTES = [`POST ${JOBS}/:id/cancel`, `POST ${JOBS}/:id/retry`];
