// Who is behind a user agent, by the COUNTER lists shipped in data/counter-robots: robots (dropped),
// machines (scripts and tools: flagged, COUNTER's "TDM" access) or people.
import machinesList from "../../data/counter-robots/machines.txt" with { type: "text" };
import robotsList from "../../data/counter-robots/robots.txt" with { type: "text" };

export type AgentKind = "robot" | "machine" | "human";

/** One case-insensitive alternation of a list's patterns (one regular expression a line). */
function alternation(list: string): RegExp {
  const patterns = list
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return new RegExp(patterns.map((p) => `(?:${p})`).join("|"), "i");
}

const ROBOTS = alternation(robotsList);
const MACHINES = alternation(machinesList);

/** Browsers send few distinct user agents: remembering verdicts keeps the regexes off the request path. */
const CACHE_LIMIT = 10_000;
const verdicts = new Map<string, AgentKind>();

export function classifyAgent(userAgent: string | null | undefined): AgentKind {
  // A request without a user agent comes from a script (COUNTER lists `no_user_agent` as a machine).
  const ua = userAgent?.trim() ?? "";
  if (ua === "") return "machine";
  let kind = verdicts.get(ua);
  if (kind === undefined) {
    kind = ROBOTS.test(ua) ? "robot" : MACHINES.test(ua) ? "machine" : "human";
    if (verdicts.size >= CACHE_LIMIT) verdicts.clear();
    verdicts.set(ua, kind);
  }
  return kind;
}
