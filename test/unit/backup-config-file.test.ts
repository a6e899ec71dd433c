// A restored cairn.toml's DATABASE_URL (src/backup/config-file.ts): replaced by the database
// restored into, taken out on SQLite, added when a database must be named; every other line kept.
import { describe, expect, test } from "bun:test";
import { parse } from "smol-toml";
import { withDatabaseUrl } from "../../src/backup/config-file";

const ORIGINAL = `# the institution's settings
BASE_URL = "https://data.uni.example"
DATABASE_URL = "postgres://cairn:secret@old-db.uni.example:5432/cairn"
THEME_SITENAME = "Uni Data"

[[OIDC_PROVIDERS]]
id = "uni"
`;

describe("withDatabaseUrl", () => {
  test("a PostgreSQL backup restored into another database names that one; the rest is as it was", () => {
    const text = withDatabaseUrl(ORIGINAL, "postgres://cairn@new-db:5432/cairn2");
    expect(parse(text)).toEqual({ ...parse(ORIGINAL), DATABASE_URL: "postgres://cairn@new-db:5432/cairn2" });
    expect(text.split("\n").filter((l) => !l.startsWith("DATABASE_URL"))).toEqual(ORIGINAL.split("\n").filter((l) => !l.startsWith("DATABASE_URL")));
  });

  test("restored onto SQLite: the key taken out (a comment says why), so the folder's cairn.db is read", () => {
    const text = withDatabaseUrl(ORIGINAL, "");
    const { DATABASE_URL: _, ...rest } = parse(ORIGINAL);
    expect(parse(text)).toEqual(rest);
    expect(text).toContain("# DATABASE_URL (the backed-up installation's database) taken out by cairn restore");
    expect(text).not.toContain("old-db");
  });

  test("a SQLite backup restored into PostgreSQL: the key added before the first table", () => {
    const sqliteMade = 'BASE_URL = "https://data.uni.example"\n\n[[OIDC_PROVIDERS]]\nid = "uni"\n';
    const text = withDatabaseUrl(sqliteMade, "postgres://cairn@db:5432/cairn");
    expect(parse(text)).toEqual({ ...parse(sqliteMade), DATABASE_URL: "postgres://cairn@db:5432/cairn" });
  });

  test("a second DATABASE_URL line (invalid TOML, but seen) goes too", () => {
    const text = withDatabaseUrl('DATABASE_URL = "a"\nX = 1\nDATABASE_URL = "b"\n', "postgres://h/d");
    expect(text).toBe('DATABASE_URL = "postgres://h/d"\nX = 1\n');
  });
});
