// `cairn mail list|show|resend|test`: the mail outbox, as the administration's Mail screen shows it.
import { systemActor } from "../core/actor";
import type { OutboxMessage } from "../mail/service";
import { parse, printTable, UsageError, when, type Command } from "./args";
import { withServices } from "./services";

const CLI = { via: "cli", address: null } as const;

/** A message's id as typed: a whole number of 1 or more. */
function messageId(raw: string | undefined, sub: string): number {
  if (raw === undefined) throw new UsageError(`mail ${sub} needs a message ID (see mail list)`);
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new UsageError(`mail ${sub}: '${raw}' is not a message ID (a whole number, see mail list)`);
  return Number(raw);
}

/** The line a resend or a test mail ends with: what became of the message. */
const outcome = (m: OutboxMessage) =>
  m.status === "sent" ? "sent: the SMTP server accepted it" : m.status === "failed" ? `failed: ${m.lastError}` : "pending: it waits in the outbox until MAIL_SERVER is set";

function show(m: OutboxMessage) {
  const lines = [
    `id: ${m.id}`,
    `to: ${m.recipient}`,
    `subject: ${m.subject}`,
    `topic: ${m.topic}`,
    `status: ${m.status}${m.givenUp ? " (given up: resend to try again)" : ""}`,
    `attempts: ${m.attempts}`,
    `created: ${when(m.created)}`,
    `sent: ${when(m.sentAt) ?? "-"}`,
    ...(m.lastError ? [`SMTP answer: ${m.lastError}`] : []),
    "",
    m.body,
  ];
  console.log(lines.join("\n"));
}

export const mailCommand: Command = {
  name: "mail",
  summary: "Read the mail outbox, resend a message, send a test mail.",
  usage: `cairn mail list [--status pending|sent|failed] [--q TEXT] [--page N] [--size N] [--json]
    The outbox, newest first: every notification, sent or waiting (when MAIL_SERVER is empty,
    all of them wait). --q: a text in the recipient, subject or topic.
cairn mail show ID
    One message with its text and the SMTP server's last answer.
cairn mail resend ID
    Makes a pending or failed message due again now and tries to send it (never a sent one).
cairn mail test --to ADDRESS
    Queues a short test message to ADDRESS and tries to send it.
    Resend and test are recorded in the audit log (via cli).`,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "list") {
      const { values } = parse(rest, { status: { type: "string" }, q: { type: "string" }, page: { type: "string" }, size: { type: "string" }, json: { type: "boolean" } });
      const { messages, total } = await withServices(values, (s) => s.mail.searchOutbox(systemActor, { status: values.status, q: values.q, page: values.page, size: values.size }));
      if (values.json) {
        console.log(
          JSON.stringify(
            messages.map((m) => ({ ...m, created: when(m.created), sentAt: when(m.sentAt) })),
            null,
            2,
          ),
        );
        return 0;
      }
      printTable(
        messages.map((m) => ({
          id: m.id,
          status: m.status,
          to: m.recipient,
          subject: m.subject,
          created: when(m.created),
          attempts: m.attempts,
          error: m.lastError?.slice(0, 80),
        })),
        ["id", "status", "to", "subject", "created", "attempts", "error"],
      );
      console.log(`${messages.length} of ${total} message(s)`);
      return 0;
    }
    if (sub === "show" || sub === "resend") {
      const { values, positionals } = parse(rest, {}, 1);
      const id = messageId(positionals[0], sub);
      const message = await withServices(values, (s) => (sub === "show" ? s.mail.readMail(systemActor, id) : s.mail.resendMail(systemActor, id, CLI)));
      if (sub === "show") show(message);
      else console.log(`resend: message ${message.id} to ${message.recipient}: ${outcome(message)}`);
      return 0;
    }
    if (sub === "test") {
      const { values } = parse(rest, { to: { type: "string" } });
      if (typeof values.to !== "string") throw new UsageError("mail test needs --to ADDRESS");
      const message = await withServices(values, (s) => s.mail.sendTestMail(systemActor, values.to, CLI));
      console.log(`test: message ${message.id} to ${message.recipient}: ${outcome(message)}`);
      return 0;
    }
    throw new UsageError(sub ? `unknown mail command '${sub}' (list, show, resend, test)` : "mail needs a command: list, show, resend or test");
  },
};
