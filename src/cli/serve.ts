// `cairn serve`: start the server until a stop signal (server/signals.ts).
import { startServer } from "../server/serve";
import { stopRequested } from "../server/signals";
import { configFrom, parse, type Command } from "./args";

export const serveCommand: Command = {
  name: "serve",
  summary: "Start the HTTP(S) server and the background job worker.",
  usage: `cairn serve [--data DIR] [--config FILE] [--host 127.0.0.1] [--port 5000] [--base-url URL]
            [--tls-cert FILE --tls-key FILE | --http] [--admin-email ADDRESS]

  Serves HTTPS with a self-signed certificate made on first start (kept in DIR/tls/) unless
  --tls-cert/--tls-key are given, or plain HTTP with --http (behind a TLS proxy, or in tests).
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
    });
    const config = configFrom(values, {
      HOST: values.host,
      PORT: values.port,
      BASE_URL: values["base-url"],
      TLS_CERT: values["tls-cert"],
      TLS_KEY: values["tls-key"],
      HTTP: values.http,
      ADMIN_EMAIL: values["admin-email"],
    });
    const received = stopRequested();
    const server = await startServer(config);
    console.log(`Received ${await received}; finishing requests and jobs...`);
    await server.stop();
    console.log("Stopped.");
    return 0;
  },
};
