// `cairn vocabularies add|edit|retire|restore|list`: the Vocabularies screen's changes by hand, as
// the system, through the same service and rules (licences and subjects: add, edit, retire;
// resource types: labels only; the rest read-only), each audited via the CLI.
import { readFileSync } from "node:fs";
import { systemActor } from "../core/actor";
import type { VocabularyOrigin } from "../vocabularies/service";
import { parse, printTable, UsageError } from "./args";
import { withServices } from "./services";

const CLI: VocabularyOrigin = { via: "cli", address: null };

type Entry = Record<string, unknown>;

/** The entry given with --file (a JSON file) or --json (the JSON itself): exactly one of them, an object. */
function entryOf(values: { file?: string; json?: string }, command: string): Entry {
  if ((values.file === undefined) === (values.json === undefined)) throw new UsageError(`vocabularies ${command} needs the entry: --file entry.json or --json '{...}'`);
  let text: string;
  if (values.file !== undefined) {
    try {
      text = readFileSync(values.file, "utf8");
    } catch {
      throw new UsageError(`${values.file} cannot be read`);
    }
  } else text = values.json!;
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`the entry is not JSON: ${(err as Error).message}`);
  }
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) throw new UsageError("the entry must be a JSON object");
  return entry as Entry;
}

/** An entry's label for a listing: its English title, or its name or subject. */
function labelOf(entry: Entry): string {
  const title = entry.title as Record<string, string> | undefined;
  return title?.en ?? Object.values(title ?? {})[0] ?? String(entry.name ?? entry.subject ?? "");
}

const ENTRY_OPTIONS = { file: { type: "string" }, json: { type: "string" } } as const;

async function add(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, ENTRY_OPTIONS, 1);
  const [type] = positionals;
  if (!type) throw new UsageError("vocabularies add needs a TYPE");
  const body = entryOf(values, "add");
  const entry = await withServices(values, (s) => s.vocabularies.addEntry(systemActor, type, body, CLI));
  console.log(`added ${type} entry ${String((entry as Entry).id)}`);
  return 0;
}

async function edit(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, ENTRY_OPTIONS, 2);
  const [type, id] = positionals;
  if (!type || !id) throw new UsageError("vocabularies edit needs a TYPE and an ID");
  const body = entryOf(values, "edit");
  const entry = await withServices(values, (s) => s.vocabularies.editEntry(systemActor, type, id, body, null, CLI));
  console.log(`saved ${type} entry ${id} (revision ${entry.revision_id})`);
  return 0;
}

async function setRetired(argv: string[], retire: boolean): Promise<number> {
  const command = retire ? "retire" : "restore";
  const { values, positionals } = parse(argv, {}, 2);
  const [type, id] = positionals;
  if (!type || !id) throw new UsageError(`vocabularies ${command} needs a TYPE and an ID`);
  await withServices(values, (s) => s.vocabularies.setRetired(systemActor, type, id, retire, CLI));
  console.log(retire ? `retired ${type} entry ${id}: new deposits no longer find it` : `${type} entry ${id} is offered again`);
  return 0;
}

async function list(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { q: { type: "string" }, retired: { type: "boolean" }, page: { type: "string" }, size: { type: "string" } }, 1);
  const [type] = positionals;
  if (!type) throw new UsageError("vocabularies list needs a TYPE");
  if (values.retired && values.q !== undefined) throw new UsageError("--retired lists every retired entry: it takes no --q");
  const paging = { page: values.page, size: values.size };
  const { rows, total } = await withServices(values, async (s) => {
    if (values.retired) {
      const retired = await s.vocabularies.listRetired(systemActor, type, paging);
      return { rows: retired.entries as Entry[], total: retired.total };
    }
    // listTypes first: administrators only, as the screen (the search itself is public).
    await s.vocabularies.listTypes(systemActor);
    const found = (await s.vocabularies.search(systemActor, type, { q: values.q, ...paging })) as { hits: { hits: Entry[]; total: number } };
    return { rows: found.hits.hits, total: found.hits.total };
  });
  printTable(
    rows.map((e) => ({ id: e.id, label: labelOf(e), retired: e.retired ?? null })),
    ["id", "label", "retired"],
  );
  console.log(`${total} ${values.retired ? "retired " : ""}entr${total === 1 ? "y" : "ies"}`);
  return 0;
}

/** The entry subcommands by name. */
export const ENTRY_COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  add,
  edit,
  retire: (argv) => setRetired(argv, true),
  restore: (argv) => setRetired(argv, false),
  list,
};

export const ENTRY_USAGE = `cairn vocabularies list TYPE [--q QUERY] [--retired] [--page N --size N]
cairn vocabularies add TYPE --file entry.json | --json '{...}'
cairn vocabularies edit TYPE ID --file entry.json | --json '{...}'
cairn vocabularies retire|restore TYPE ID
  As the Vocabularies screen, audited via the CLI: licenses and subjects may be added, edited and
  retired (a retired entry leaves searches and the deposit form, records naming it still
  resolve); resourcetypes' labels (title) may be edited; every other type is read-only.`;
