// `cairn communities list|feature|unfeature|delete`: what an administrator does in the
// administration's Communities screen and through /api/communities, from the command line, as the
// system and audited via the CLI (communities/service.ts, communities/featured.ts).
import { systemActor } from "../core/actor";
import { parse, printTable, requireString, UsageError, type Command } from "./args";
import { withServices } from "./services";

const CLI = { via: "cli", address: null } as const;

type Json = Record<string, any>;

/** The one positional ID_OR_SLUG of `sub`, or a usage error naming what is missing. */
function keyOf(sub: string, positionals: string[]): string {
  const key = positionals[0];
  if (!key) throw new UsageError(`communities ${sub} needs the community's ID or slug`);
  return key;
}

async function runList(argv: string[]): Promise<number> {
  const { values } = parse(argv, { q: { type: "string" }, size: { type: "string" } });
  const rows = await withServices(values, async (s) => {
    const found = (await s.communities.searchCommunities(systemActor, { q: values.q, size: values.size ?? "100", sort: values.q ? undefined : "newest" })) as Json;
    return await Promise.all(
      ((found.hits?.hits ?? []) as Json[]).map(async (c) => {
        const periods = ((await s.communities.listFeatured(systemActor, c.id)) as Json).hits.hits as Json[];
        const featured = periods.map((p) => `${p.id}: ${p.start_date}${p.end_date ? ` to ${p.end_date}` : ""}`).join("; ");
        return { id: c.id, slug: c.slug, title: c.metadata?.title, visibility: c.access?.visibility, featured: featured || null };
      }),
    );
  });
  printTable(rows, ["id", "slug", "title", "visibility", "featured"]);
  return 0;
}

async function runFeature(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { start: { type: "string" }, end: { type: "string" } }, 1);
  const key = keyOf("feature", positionals);
  const body = { start_date: requireString(values, "start"), end_date: values.end ?? null };
  const period = await withServices(values, (s) => s.communities.createFeatured(systemActor, key, body, CLI));
  console.log(`featured ${key} from ${period.start_date}${period.end_date ? ` to ${period.end_date}` : ""} (featured entry ${period.id})`);
  return 0;
}

/** Removes one featured period (--featured ID) or every period of the community, each audited. */
async function runUnfeature(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { featured: { type: "string" } }, 1);
  const key = keyOf("unfeature", positionals);
  const removed = await withServices(values, async (s) => {
    if (values.featured !== undefined) {
      await s.communities.deleteFeatured(systemActor, key, values.featured, CLI);
      return [values.featured];
    }
    const periods = ((await s.communities.listFeatured(systemActor, key)) as Json).hits.hits as Json[];
    if (!periods.length) throw new UsageError(`community ${key} has no featured period`);
    for (const p of periods) await s.communities.deleteFeatured(systemActor, key, String(p.id), CLI);
    return periods.map((p) => String(p.id));
  });
  console.log(`unfeatured ${key} (featured entries ${removed.join(", ")} removed)`);
  return 0;
}

async function runDelete(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {}, 1);
  const key = keyOf("delete", positionals);
  await withServices(values, (s) => s.communities.deleteCommunity(systemActor, key, null, CLI));
  console.log(`deleted community ${key}`);
  return 0;
}

const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<number>> = { list: runList, feature: runFeature, unfeature: runUnfeature, delete: runDelete };

export const communitiesCommand: Command = {
  name: "communities",
  summary: "List communities, feature them for a period or stop, delete them.",
  usage: `cairn communities list [--q WORDS] [--size N]
    Every community (restricted ones too), newest first or matching WORDS, with its featured periods.
cairn communities feature ID_OR_SLUG --start DATE [--end DATE]
    Features a public community from DATE (ISO 8601, UTC without a zone: 2026-05-01T00:00) until
    --end, or until another period replaces it.
cairn communities unfeature ID_OR_SLUG [--featured FEATURED_ID]
    Removes one featured period (its id, as list shows it) or, without --featured, every one.
cairn communities delete ID_OR_SLUG
    Deletes the community: its members and featured periods go, its open requests are cancelled,
    its records stay.
Each change is written to the audit log (cairn audit list: community.feature, community.unfeature,
community.delete) as done by the system, via the CLI.`,
  async run(argv) {
    const [sub, ...rest] = argv;
    // Own keys only: `toString` is no subcommand.
    const run = sub && Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
    if (run) return run(rest);
    const names = Object.keys(SUBCOMMANDS).join(", ");
    throw new UsageError(sub ? `unknown communities command '${sub}' (${names})` : `communities needs a command: ${names}`);
  },
};
