// The mail outbox: notifications are queued as rows after the change they report has committed,
// and delivered over SMTP by the `mail-send` job when MAIL_SERVER is set (otherwise they wait).
import type Nodemailer from "nodemailer";
import { requireAdmin, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import * as store from "./store";
import { lazy } from "../core/lazy";
import { badRequest, conflict, notFound } from "../core/errors";
import { parsePage } from "../core/paging";
import type { Db } from "../db/port";
import type { AuditService } from "../audit/service";
import type { AuditVia } from "../audit/model";

export interface OutgoingMail {
  to: string;
  subject: string;
  /** Plain text. */
  body: string;
  /** What it is about, e.g. `request:<uuid>`. */
  topic: string;
}

/** Attempts before a message is given up (the last one about 68 hours after it was queued). */
export const MAIL_MAX_ATTEMPTS = 12;
/** A message tried n times waits RETRY_BASE * (2^n - 1) after it was queued. */
export const MAIL_RETRY_BASE_MS = 60_000;
const BATCH = 200;
const OUTBOX_PAGING = { defaultSize: 25, maxSize: 100, maxWindow: 10_000 };
export const MAIL_STATUSES: store.MailStatus[] = ["pending", "sent", "failed"];

/** The outbox's search: by status, a text in the recipient, subject or topic, paged. */
export interface OutboxQuery {
  status?: string;
  q?: string;
  page?: unknown;
  size?: unknown;
}

/** A message of the outbox as administrators see it. */
export interface OutboxMessage {
  id: number;
  recipient: string;
  subject: string;
  body: string;
  topic: string;
  created: number;
  sentAt: number | null;
  attempts: number;
  /** The SMTP server's answer to the last attempt, when it failed. */
  lastError: string | null;
  status: store.MailStatus;
  /** Failed so often that it is no longer tried (until resent). */
  givenUp: boolean;
}

const statusOf = (row: store.MailRow): store.MailStatus => (row.sentAt !== null ? "sent" : row.lastError !== null ? "failed" : "pending");
const presentMail = (row: store.MailRow): OutboxMessage => ({ ...row, status: statusOf(row), givenUp: row.sentAt === null && row.attempts >= MAIL_MAX_ATTEMPTS });
/** An address as a person types it: one @, no spaces or angle brackets (SMTP would refuse the rest anyway). */
const PLAIN_ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+$/;

export interface DeliveryReport {
  sent: number;
  failed: number;
  /** True when no SMTP server is configured: nothing was tried. */
  disabled?: boolean;
}

/** nodemailer's errors carry the SMTP reply code; 5xx to a message is permanent (a rejected address). */
const isPermanent = (err: unknown) => {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
};
/** Errors of the connection itself (refused, timed out, TLS, login): every other message would fail alike. */
const isConnectionError = (err: unknown) => ["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EAUTH", "ETLS", "EDNS", "EPROTOCOL"].includes(String((err as { code?: string }).code));
const describe = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/** nodemailer, loaded with the first delivery: a server without MAIL_SERVER never needs it. */
const mailer = lazy(() => require("nodemailer") as typeof Nodemailer);

export type MailService = ReturnType<typeof createMailService>;

/** Which way an administrator's action came in, for its audit entry (the client's address for api and web). */
export interface MailOrigin {
  via: AuditVia;
  address?: string | null;
}

export function createMailService(deps: Deps & { log?(message: string): void; audit?: Pick<AuditService, "record"> }) {
  const { db, clock, config } = deps;

  /** Writes a message's change and its audit entry (`mail.{action}`) in one transaction. */
  async function audited<T extends { id: number; recipient: string }>(actor: Actor, action: "resend" | "test", origin: MailOrigin, change: (tx: Db) => Promise<T>): Promise<T> {
    if (!deps.audit) throw new Error("the mail service was built without the audit log");
    const audit = deps.audit;
    return db.write(async (tx) => {
      const row = await change(tx);
      await audit.record(
        actor,
        { action: `mail.${action}`, targetType: "mail", targetId: row.id, details: { to: row.recipient }, address: origin.address ?? null, via: origin.via },
        tx,
      );
      return row;
    });
  }

  function transport() {
    return mailer().createTransport({
      host: config.MAIL_SERVER,
      port: config.MAIL_PORT,
      secure: config.MAIL_USE_SSL,
      // MAIL_USE_TLS: STARTTLS is required; off, it is not even tried (a LAN relay without TLS).
      requireTLS: config.MAIL_USE_TLS && !config.MAIL_USE_SSL,
      ignoreTLS: !config.MAIL_USE_TLS && !config.MAIL_USE_SSL,
      auth: config.MAIL_USERNAME ? { user: config.MAIL_USERNAME, pass: config.MAIL_PASSWORD } : undefined,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
  }

  let delivering: Promise<unknown> = Promise.resolve();

  /**
   * Sends the due messages over one connection; a connection failure ends the run, so a dead
   * server is not hammered. Runs one at a time in this process (a run asked for during another
   * starts after it), so two runs never send the same message.
   */
  function deliverPending(): Promise<DeliveryReport> {
    const run = delivering.then(deliverDue, deliverDue);
    delivering = run.catch(() => undefined);
    return run;
  }

  async function readMail(actor: Actor, id: number): Promise<OutboxMessage> {
    requireAdmin(actor);
    const row = Number.isSafeInteger(id) && id > 0 ? await store.findMailById(db, id) : undefined;
    if (!row) throw notFound(`No message with id ${id} in the outbox.`);
    return presentMail(row);
  }

  return {
    /** Queues one message; call after the change it reports has committed. A blank address is skipped. */
    async queueMail(mail: OutgoingMail) {
      const to = mail.to.trim();
      if (!to) return null;
      return store.insertMail(db, { recipient: to, subject: mail.subject, body: mail.body, topic: mail.topic, created: clock.now() });
    },

    deliverPending,

    /** The outbox, newest first (administrators; tests and the CLI find a notification by topic). */
    async listMail(actor: Actor, options: { topic?: string; limit?: number } = {}) {
      requireAdmin(actor);
      return store.listMail(db, options.topic, options.limit ?? 100);
    },

    /** The outbox, newest first, filtered by status and text and paged (administrators). */
    async searchOutbox(actor: Actor, query: OutboxQuery): Promise<{ messages: OutboxMessage[]; total: number; page: number; size: number }> {
      requireAdmin(actor);
      const status = query.status || undefined;
      if (status !== undefined && !MAIL_STATUSES.includes(status as store.MailStatus)) {
        throw badRequest("Invalid querystring parameters.", [{ field: "status", messages: [`Must be one of: ${MAIL_STATUSES.join(", ")}.`] }]);
      }
      const page = parsePage(query, OUTBOX_PAGING);
      const text = query.q?.trim().slice(0, 200) || undefined;
      const { rows, total } = await store.searchMail(db, { status: status as store.MailStatus | undefined, text }, page.size, page.offset);
      return { messages: rows.map(presentMail), total, page: page.page, size: page.size };
    },

    /** One message of the outbox (administrators); 404 when there is none. */
    readMail,

    /**
     * Makes a pending or failed message due again at once (its attempts and error cleared) and
     * starts a delivery run; 409 for a message already sent. Answers the message as it stands
     * after the run (still waiting when no SMTP server is set). Audited as `mail.resend`.
     */
    async resendMail(actor: Actor, id: number, origin: MailOrigin): Promise<OutboxMessage> {
      // readMail is the administrators-only check, before anything changes.
      const message = await readMail(actor, id);
      if (message.status === "sent") throw conflict(`Message ${id} was sent already; it is not sent twice.`);
      await audited(actor, "resend", origin, async (tx) => {
        if (!(await store.resetMailForResend(tx, id))) throw conflict(`Message ${id} was sent meanwhile; it is not sent twice.`);
        return message;
      });
      await deliverPending();
      return readMail(actor, id);
    },

    /** Queues a short test message to `to` (audited as `mail.test`) and starts a delivery run; answers it as it stands after the run. */
    async sendTestMail(actor: Actor, to: unknown, origin: MailOrigin): Promise<OutboxMessage> {
      requireAdmin(actor);
      const address = typeof to === "string" ? to.trim() : "";
      if (!PLAIN_ADDRESS.test(address) || address.length > 254)
        throw badRequest("The address is not valid.", [{ field: "to", messages: ["Enter one e-mail address, such as you@example.org."] }]);
      const row = await audited(actor, "test", origin, (tx) =>
        store.insertMail(tx, {
          recipient: address,
          subject: "Test message from Cairn",
          body: `This is a test message, sent by an administrator at ${new Date(clock.now()).toISOString()}.\n\nIf you can read it, Cairn's mail works.\n`,
          topic: "mail-test",
          created: clock.now(),
        }),
      );
      await deliverPending();
      return readMail(actor, row.id);
    },
  };

  async function deliverDue(): Promise<DeliveryReport> {
    if (!config.MAIL_SERVER) return { sent: 0, failed: 0, disabled: true };
    const due = await store.listDueMail(db, clock.now(), MAIL_MAX_ATTEMPTS, MAIL_RETRY_BASE_MS, BATCH);
    if (due.length === 0) return { sent: 0, failed: 0 };
    const smtp = transport();
    const report: DeliveryReport = { sent: 0, failed: 0 };
    try {
      for (const [i, row] of due.entries()) {
        try {
          await smtp.sendMail({ from: config.MAIL_DEFAULT_SENDER, to: row.recipient, subject: row.subject, text: row.body });
          await store.markMailSent(db, row.id, clock.now());
          report.sent++;
        } catch (err) {
          if (isConnectionError(err)) {
            // The server, not the message: every due message counts the failed run (and backs off), none is tried again now.
            for (const rest of due.slice(i)) await store.markMailFailed(db, rest.id, describe(err));
            report.failed += due.length - i;
            deps.log?.(`mail: the SMTP server ${config.MAIL_SERVER}:${config.MAIL_PORT} failed: ${describe(err)}`);
            break;
          }
          report.failed++;
          await store.markMailFailed(db, row.id, describe(err), isPermanent(err) ? MAIL_MAX_ATTEMPTS : undefined);
          deps.log?.(`mail to ${row.recipient} (#${row.id}) failed: ${describe(err)}`);
        }
      }
    } finally {
      smtp.close();
    }
    return report;
  }
}
