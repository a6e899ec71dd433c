// `cairn oai-sets list|create|update|delete`: the OAI-PMH sets an administrator manages through
// /api/oaipmh/sets and the administration's OAI-PMH sets screen, from the command line, as the
// system and audited via the CLI (oai/service.ts).
import { systemActor } from "../core/actor";
import { parse, printTable, requireString, UsageError, type Command } from "./args";
import { withServices } from "./services";

const CLI = { via: "cli", address: null } as const;

const FIELDS = { name: { type: "string" }, "search-pattern": { type: "string" }, description: { type: "string" } } as const;

/** The one positional set ID of `sub`, or a usage error. */
function idOf(sub: string, positionals: string[]): string {
  const id = positionals[0];
  if (!id) throw new UsageError(`oai-sets ${sub} needs the set's ID (cairn oai-sets list shows it)`);
  return id;
}

async function runList(argv: string[]): Promise<number> {
  const { values } = parse(argv, { q: { type: "string" }, size: { type: "string" } });
  const found = await withServices(values, (s) => s.oai.listSets(systemActor, { q: values.q, size: values.size ?? "100", sort: "spec" }));
  printTable(found.hits.hits, ["id", "spec", "name", "search_pattern"]);
  return 0;
}

async function runCreate(argv: string[]): Promise<number> {
  const { values } = parse(argv, { spec: { type: "string" }, ...FIELDS });
  const body = {
    spec: requireString(values, "spec"),
    name: requireString(values, "name"),
    search_pattern: requireString(values, "search-pattern"),
    description: values.description,
  };
  const set = await withServices(values, (s) => s.oai.createSet(systemActor, body, CLI));
  console.log(`created set ${set.spec} (id ${set.id})`);
  return 0;
}

/** Changes the fields given; the others keep their values (the service takes the whole set). */
async function runUpdate(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, FIELDS, 1);
  const id = idOf("update", positionals);
  if (values.name === undefined && values["search-pattern"] === undefined && values.description === undefined)
    throw new UsageError("oai-sets update needs --name, --search-pattern or --description");
  const set = await withServices(values, async (s) => {
    const current = await s.oai.readSet(systemActor, id);
    const body = {
      name: values.name ?? current.name,
      search_pattern: values["search-pattern"] ?? current.search_pattern,
      description: values.description ?? current.description,
    };
    return await s.oai.updateSet(systemActor, id, body, CLI);
  });
  console.log(`updated set ${set.spec} (id ${set.id})`);
  return 0;
}

async function runDelete(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {}, 1);
  const id = idOf("delete", positionals);
  await withServices(values, (s) => s.oai.deleteSet(systemActor, id, CLI));
  console.log(`deleted set ${id}`);
  return 0;
}

const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<number>> = { list: runList, create: runCreate, update: runUpdate, delete: runDelete };

export const oaiSetsCommand: Command = {
  name: "oai-sets",
  summary: "List, create, change and delete the OAI-PMH sets harvesters select records by.",
  usage: `cairn oai-sets list [--q WORDS] [--size N]
    The sets, by spec, with their ids.
cairn oai-sets create --spec SPEC --name NAME --search-pattern QUERY [--description TEXT]
    SPEC is the OAI setSpec harvesters ask for (letters, digits, - _ . ! ~ * ' ( ), ':' between
    levels; it cannot change later); QUERY a records search (metadata.subjects.subject:physics).
cairn oai-sets update ID [--name NAME] [--search-pattern QUERY] [--description TEXT]
    Changes the fields given; the others keep their values.
cairn oai-sets delete ID
Each change is written to the audit log (cairn audit list: oai-set.create, oai-set.update,
oai-set.delete) as done by the system, via the CLI.`,
  async run(argv) {
    const [sub, ...rest] = argv;
    // Own keys only: `toString` is no subcommand.
    const run = sub && Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
    if (run) return run(rest);
    const names = Object.keys(SUBCOMMANDS).join(", ");
    throw new UsageError(sub ? `unknown oai-sets command '${sub}' (${names})` : `oai-sets needs a command: ${names}`);
  },
};
