// `cairn serve`: start the server until a stop signal (server/signals.ts).
import { workerRole } from "../config";
import { startServer } from "../server/serve";
import { stopRequested, supervisorGone } from "../server/signals";
import { kernelBalancesPorts, superviseWorkers, workerCount } from "../server/workers";
import { configFrom, parse, type Command } from "./args";

export const serveCommand: Command = {
  name: "serve",
  summary: "Start the HTTP(S) server and the background job worker.",
  usage: `cairn serve [--data DIR] [--config FILE] [--host 127.0.0.1] [--port 5000] [--base-url URL]
            [--tls-cert FILE --tls-key FILE | --http] [--admin-email ADDRESS] [--workers N|auto]

  Serves HTTPS with a self-signed certificate made on first start (kept in DIR/tls/) unless
  --tls-cert/--tls-key are given, or plain HTTP with --http (behind a TLS proxy, or in tests).
  --workers N (WORKERS): N serving processes on the one port, supervised by this one (auto: one per
  CPU core; a crashed one is started again). Linux spreads the connections over them; on macOS and
  Windows, whose kernels do not, one process serves. See the README's "Growing past one machine".
  On first start an administrator (--admin-email, default admin@localhost) and a token are
  created; the file holding them is printed. OAI-PMH Identify gives that address as adminEmail.
  Stops gracefully on Ctrl-C or SIGTERM (Ctrl-C or Ctrl-Break on Windows): in-flight requests finish, jobs stop, the database closes.`,
  async run(argv) {
    const { values } = parse(argv, {
      host: { type: "string" },
      port: { type: "string" },
      "base-url": { type: "string" },
      "tls-cert": { type: "string" },
      "tls-key": { type: "string" },
      http: { type: "boolean" },
      "admin-email": { type: "string" },
      workers: { type: "string" },
    });
    const configFor = (port?: number) =>
      configFrom(values, {
        HOST: values.host,
        PORT: port ?? values.port,
        BASE_URL: values["base-url"],
        TLS_CERT: values["tls-cert"],
        TLS_KEY: values["tls-key"],
        HTTP: values.http,
        ADMIN_EMAIL: values["admin-email"],
        WORKERS: values.workers,
      });
    const config = configFor();
    const received = stopRequested();
    const role = workerRole();
    let count = role ? 1 : workerCount(config.WORKERS);
    if (count > 1 && !kernelBalancesPorts()) {
      console.error(`WORKERS is ${config.WORKERS}, but ${process.platform} does not spread one port's connections over several processes: one process serves.`);
      count = 1;
    }
    const server = count > 1 ? await superviseWorkers(configFor, count, argv) : await startServer(config, undefined, undefined, role);
    // A worker tells its supervisor it serves, and stops when the supervisor is gone (killed without a word).
    if (role) process.send?.({ serving: true });
    const reason = await (role ? Promise.race([received, supervisorGone(role.supervisorPid)]) : received);
    console.log(`Received ${reason}; finishing requests and jobs...`);
    await server.stop();
    console.log("Stopped.");
    return 0;
  },
};
