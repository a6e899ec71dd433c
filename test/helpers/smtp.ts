// A real SMTP server on 127.0.0.1 for tests (the `smtp-server` package, not Cairn's code): every
// message Cairn's mail job delivers is received, parsed by `mailparser`, and kept for the test to
// read (its links, to follow them as the person would).
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMessage {
  from: string;
  to: string[];
  subject: string;
  /** The plain-text body, transfer encoding undone. */
  text: string;
}

export interface TestSmtp {
  port: number;
  received: ReceivedMessage[];
  /** Recipients (lower case) this server refuses with 550, as a mail server refuses an unknown mailbox; add and remove freely. */
  refusing: Set<string>;
  /** The configuration that points Cairn's mail at this server (no TLS, no login). */
  config: { MAIL_SERVER: string; MAIL_PORT: number; MAIL_USE_TLS: boolean; MAIL_USE_SSL: boolean };
  /** The messages to `to` so far, oldest first. */
  to(to: string): ReceivedMessage[];
  stop(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMessage[] = [];
  const refusing = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refusing.has(address.address.toLowerCase())) return callback();
      callback(Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: mailbox unavailable`), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? "",
            text: mail.text ?? "",
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.server.address() as { port: number }).port));
  });
  return {
    port,
    received,
    refusing,
    config: { MAIL_SERVER: "127.0.0.1", MAIL_PORT: port, MAIL_USE_TLS: false, MAIL_USE_SSL: false },
    to: (to) => received.filter((m) => m.to.some((r) => r.toLowerCase() === to.toLowerCase())),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a message's text that starts with `base` + `path`. */
export function linkIn(message: ReceivedMessage, base: string, path: string): string {
  const found = message.text.split(/\s+/).find((word) => word.startsWith(base + path));
  if (!found) throw new Error(`no ${path} link in the message "${message.subject}":\n${message.text}`);
  return found;
}
