// A TCP port of 127.0.0.1 for a server a test starts (Cairn, slapd, PostgreSQL, a fake upstream).

/** A TCP port nothing listens on right now. */
export function freePort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}
