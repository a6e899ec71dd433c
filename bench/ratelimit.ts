// Benchmark of the rate limits' cost per request: (1) the limiter alone (one counter per client,
// InvenioRDM's two limits each), over many clients and over one; (2) the whole pre-routing step of
// the HTTP layer (core/http-policy.ts) for a remote guest, with limits on minus limits off.
// Usage: bun bench/ratelimit.ts [--clients 10000] [--requests 2000000]
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createAddressResolver, withClientAddress } from "../src/core/client-address";
import { createRequestPolicy, type HttpPolicy } from "../src/core/http-policy";
import { corsPolicy } from "../src/core/cors";
import { createRateLimiter, parseRateLimits } from "../src/core/rate-limit";
import { ManualClock } from "../src/core/time";

const { values } = parseArgs({ options: { clients: { type: "string" }, requests: { type: "string" } } });
const CLIENTS = Number(values.clients ?? 10_000);
const REQUESTS = Number(values.requests ?? 2_000_000);

/** Runs `step(i)` REQUESTS times after a warm-up; the mean in microseconds. */
function measure(step: (i: number) => unknown): number {
  for (let i = 0; i < 200_000; i++) step(i);
  const started = Bun.nanoseconds();
  for (let i = 0; i < REQUESTS; i++) step(i);
  return (Bun.nanoseconds() - started) / REQUESTS / 1000;
}

const clock = new ManualClock(Date.UTC(2026, 0, 1));
// The clock moves a millisecond every 100 requests: windows roll over during the run, as in use.
const tick = (i: number) => i % 100 === 0 && clock.advance(1);
const guest = parseRateLimits("5000 per hour;500 per minute");
const keys = Array.from({ length: CLIENTS }, (_, i) => `a:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);

const limiter = createRateLimiter(clock);
const manyClients = measure((i) => (tick(i), limiter.take(keys[i % CLIENTS]!, guest)));
const oneClient = measure((i) => (tick(i), limiter.take("a:192.0.2.1", guest)));

// The HTTP layer's step: security and CORS headers, target check, address, limiter, X-RateLimit-*.
const requests = keys.map((key) => withClientAddress(new Request("http://127.0.0.1:5000/api/records/abcde-12345"), key.slice(2)));
const policyOf = (rateLimits: HttpPolicy["rateLimits"]) =>
  createRequestPolicy(
    { rateLimits, clientAddress: createAddressResolver([]), cors: corsPolicy(["*"]), httpsBase: false, clock },
    { userOf: () => null, allowedMethods: () => [], isInternal: () => false },
  );
const step = (policy: ReturnType<typeof policyOf>) => (i: number) => {
  tick(i);
  const request = requests[i % CLIENTS]!;
  const headers: Record<string, string> = {};
  policy.setHeaders(request, headers);
  return policy.check(request, headers, null);
};
// Limits high enough that every request passes: the common case.
const on = policyOf({ authenticated: guest, guest: parseRateLimits("1000000 per hour;1000000 per minute") });
const off = policyOf(null);
const withLimits = measure(step(on));
const withoutLimits = measure(step(off));

const result = {
  date: new Date().toISOString(),
  clients: CLIENTS,
  requests: REQUESTS,
  limiterManyClientsMicros: +manyClients.toFixed(3),
  limiterOneClientMicros: +oneClient.toFixed(3),
  httpStepWithLimitsMicros: +withLimits.toFixed(3),
  httpStepWithoutLimitsMicros: +withoutLimits.toFixed(3),
  rateLimitCostPerRequestMicros: +(withLimits - withoutLimits).toFixed(3),
  trackedClients: limiter.size(),
};
console.log(JSON.stringify(result, null, 2));
writeFileSync(join(import.meta.dir, "results", `ratelimit-${result.date.slice(0, 10)}.json`), JSON.stringify(result, null, 2) + "\n");
