// The mail outbox: notifications are queued as rows after the change they report has committed,
// and delivered over SMTP by the `mail-send` job when MAIL_SERVER is set (otherwise they wait).
import type Nodemailer from "nodemailer";
import { requireAdmin, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import * as store from "./store";
import { lazy } from "../core/lazy";

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

export function createMailService(deps: Deps & { log?(message: string): void }) {
  const { db, clock, config } = deps;

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

  return {
    /** Queues one message; call after the change it reports has committed. A blank address is skipped. */
    async queueMail(mail: OutgoingMail) {
      const to = mail.to.trim();
      if (!to) return null;
      return store.insertMail(db, { recipient: to, subject: mail.subject, body: mail.body, topic: mail.topic, created: clock.now() });
    },

    /**
     * Sends the due messages over one connection; a connection failure ends the run, so a dead
     * server is not hammered. Runs one at a time in this process (a run asked for during another
     * starts after it), so two runs never send the same message.
     */
    deliverPending(): Promise<DeliveryReport> {
      const run = delivering.then(deliverDue, deliverDue);
      delivering = run.catch(() => undefined);
      return run;
    },

    /** The outbox, newest first (administrators; tests and the CLI find a notification by topic). */
    async listMail(actor: Actor, options: { topic?: string; limit?: number } = {}) {
      requireAdmin(actor);
      return store.listMail(db, options.topic, options.limit ?? 100);
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
