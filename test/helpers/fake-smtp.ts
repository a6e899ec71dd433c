// A fake SMTP server on 127.0.0.1 for tests: just enough of RFC 5321 for nodemailer (greeting,
// EHLO, MAIL, RCPT, DATA, QUIT), recording each message; recipients can be refused.
import type { Socket, TCPSocketListener } from "bun";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The DATA section as sent (headers and body), dot-stuffing removed. */
  data: string;
}

export interface FakeSmtpOptions {
  /** Recipients answered `550` at RCPT (a permanent refusal). */
  reject?: string[];
  /** Recipients answered `451` at RCPT (a temporary failure). */
  deferred?: string[];
}

interface Session {
  buffer: string;
  inData: boolean;
  from: string;
  to: string[];
  data: string[];
}

const address = (arg: string) => /<([^>]*)>/.exec(arg)?.[1] ?? arg.trim();

export function startFakeSmtp(options: FakeSmtpOptions = {}) {
  const received: ReceivedMail[] = [];
  const commands: string[] = [];
  const reject = new Set(options.reject ?? []);
  const deferred = new Set(options.deferred ?? []);
  const reply = (socket: Socket<Session>, line: string) => socket.write(`${line}\r\n`);

  function command(socket: Socket<Session>, line: string) {
    const s = socket.data;
    commands.push(line);
    const verb = line.slice(0, 4).toUpperCase();
    const arg = line.slice(line.indexOf(":") + 1);
    if (verb === "EHLO") return reply(socket, "250-fake.smtp greets you\r\n250-8BITMIME\r\n250 SMTPUTF8");
    if (verb === "HELO") return reply(socket, "250 fake.smtp");
    if (verb === "MAIL") {
      s.from = address(arg);
      s.to = [];
      return reply(socket, "250 OK");
    }
    if (verb === "RCPT") {
      const to = address(arg);
      if (reject.has(to)) return reply(socket, `550 5.1.1 <${to}>: no such user`);
      if (deferred.has(to)) return reply(socket, `451 4.3.0 <${to}>: try again later`);
      s.to.push(to);
      return reply(socket, "250 OK");
    }
    if (verb === "DATA") {
      s.inData = true;
      s.data = [];
      return reply(socket, "354 End data with <CR><LF>.<CR><LF>");
    }
    if (verb === "RSET") return reply(socket, "250 OK");
    if (verb === "NOOP") return reply(socket, "250 OK");
    if (verb === "QUIT") {
      reply(socket, "221 Bye");
      return socket.end();
    }
    reply(socket, "502 Command not implemented");
  }

  function dataLine(socket: Socket<Session>, line: string) {
    const s = socket.data;
    if (line === ".") {
      s.inData = false;
      received.push({ from: s.from, to: s.to, data: s.data.join("\r\n") });
      return reply(socket, "250 OK: queued");
    }
    s.data.push(line.startsWith("..") ? line.slice(1) : line);
  }

  const server: TCPSocketListener<Session> = Bun.listen<Session>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket) {
        socket.data = { buffer: "", inData: false, from: "", to: [], data: [] };
        reply(socket, "220 fake.smtp ESMTP ready");
      },
      data(socket, chunk) {
        const s = socket.data;
        s.buffer += chunk.toString("utf8");
        let at: number;
        while ((at = s.buffer.indexOf("\r\n")) >= 0) {
          const line = s.buffer.slice(0, at);
          s.buffer = s.buffer.slice(at + 2);
          if (s.inData) dataLine(socket, line);
          else command(socket, line);
        }
      },
    },
  });

  return {
    port: server.port,
    received,
    commands,
    /** Change them between runs (a mailbox that comes back, say). */
    reject,
    deferred,
    stop: () => server.stop(true),
  };
}

export type FakeSmtp = ReturnType<typeof startFakeSmtp>;
