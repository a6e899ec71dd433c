// Reading an OAI-PMH request's arguments (OAI-PMH 2.0 §3.1 and §4): the verb, which arguments
// each verb takes, exclusive resumption tokens, and from/until dates at day or second granularity.
import { OaiError } from "./xml";

export type Verb = "Identify" | "ListMetadataFormats" | "ListSets" | "GetRecord" | "ListIdentifiers" | "ListRecords";

interface VerbArguments {
  required: string[];
  optional: string[];
  /** An argument that must come alone (besides the verb). */
  exclusive?: string;
}

const LIST_ARGUMENTS: VerbArguments = { required: ["metadataPrefix"], optional: ["from", "until", "set"], exclusive: "resumptionToken" };

const VERBS: Record<Verb, VerbArguments> = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ["identifier"] },
  ListSets: { required: [], optional: [], exclusive: "resumptionToken" },
  GetRecord: { required: ["identifier", "metadataPrefix"], optional: [] },
  ListIdentifiers: LIST_ARGUMENTS,
  ListRecords: LIST_ARGUMENTS,
};

const isVerb = (v: string): v is Verb => Object.hasOwn(VERBS, v);

/** setSpecType and metadataPrefixType of OAI-PMH.xsd. */
export const SET_SPEC = /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/;
const METADATA_PREFIX = /^[A-Za-z0-9\-_.!~*'()]+$/;

export interface OaiRequest {
  verb: Verb;
  args: Record<string, string>;
}

/** The verb and its arguments, checked; badVerb or badArgument otherwise. */
export function parseRequest(pairs: [string, string][]): OaiRequest {
  const verbs = pairs.filter(([name]) => name === "verb").map(([, value]) => value);
  if (verbs.length === 0) throw new OaiError("badVerb", "The verb argument is missing.");
  if (verbs.length > 1) throw new OaiError("badVerb", "The verb argument is repeated.");
  const verb = verbs[0]!;
  if (!isVerb(verb)) throw new OaiError("badVerb", `'${verb}' is not an OAI-PMH verb; use one of ${Object.keys(VERBS).join(", ")}.`);
  const rules = VERBS[verb];
  const args: Record<string, string> = {};
  for (const [name, value] of pairs) {
    if (name === "verb") continue;
    if (Object.hasOwn(args, name)) throw new OaiError("badArgument", `The argument '${name}' is repeated.`);
    if (![...rules.required, ...rules.optional, rules.exclusive].includes(name)) throw new OaiError("badArgument", `'${name}' is not an argument of ${verb}.`);
    if (value === "") throw new OaiError("badArgument", `The argument '${name}' is empty.`);
    args[name] = value;
  }
  if (rules.exclusive && args[rules.exclusive] !== undefined) {
    if (Object.keys(args).length > 1) throw new OaiError("badArgument", `${rules.exclusive} is an exclusive argument: send it with the verb only.`);
    return { verb, args };
  }
  const missing = rules.required.filter((name) => args[name] === undefined);
  if (missing.length) throw new OaiError("badArgument", `${verb} needs the argument(s) ${missing.join(", ")}.`);
  if (args.metadataPrefix !== undefined && !METADATA_PREFIX.test(args.metadataPrefix))
    throw new OaiError("badArgument", "The metadataPrefix has characters OAI-PMH does not allow.");
  if (args.set !== undefined && !SET_SPEC.test(args.set)) throw new OaiError("badArgument", "The set argument is not a valid setSpec.");
  return { verb, args };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SECONDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** A UTC date (`YYYY-MM-DD`) or time (`YYYY-MM-DDThh:mm:ssZ`) as ms, with the length of its period. */
function parseDate(name: string, value: string): { ms: number; period: number } {
  const m = DAY.exec(value) ?? SECONDS.exec(value);
  const fail = () => new OaiError("badArgument", `'${name}' must be a UTC date YYYY-MM-DD or time YYYY-MM-DDThh:mm:ssZ.`);
  if (!m) throw fail();
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map(Number) as number[];
  const ms = Date.UTC(y!, mo! - 1, d, h, mi, s);
  const back = new Date(ms);
  // Date.UTC rolls 2024-02-30 over to March: refuse dates that do not exist.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo! - 1 || back.getUTCDate() !== d || h! > 23 || mi! > 59 || s! > 59) throw fail();
  return { ms, period: m.length === 4 ? 86_400_000 : 1000 };
}

/** from/until as [inclusive, exclusive) ms bounds; an `until` covers its whole day or second. */
export function dateRange(args: Record<string, string>): { from?: number; until?: number } {
  const from = args.from !== undefined ? parseDate("from", args.from) : undefined;
  const until = args.until !== undefined ? parseDate("until", args.until) : undefined;
  if (from && until) {
    if (from.period !== until.period) throw new OaiError("badArgument", "from and until must have the same granularity.");
    if (from.ms > until.ms) throw new OaiError("badArgument", "from is later than until.");
  }
  return { from: from?.ms, until: until ? until.ms + until.period : undefined };
}
