// loadConfig: defaults, derived values, precedence (defaults < cairn.toml < CAIRN_* env < flags), parsing and errors.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONFIG_KEYS, ConfigError, describeConfig, loadConfig, workerRole, type LoadOptions } from "../../src/config";
import { kernelBalancesPorts, workerCount } from "../../src/server/workers";

const root = mkdtempSync(join(tmpdir(), "cairn-config-"));
let counter = 0;

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A fresh data directory, optionally holding a cairn.toml with the given text. */
function dataDir(toml?: string): string {
  const dir = join(root, `data-${++counter}`);
  mkdirSync(dir);
  if (toml !== undefined) writeFileSync(join(dir, "cairn.toml"), toml);
  return dir;
}

/** Loads with an empty environment and a data dir without a config file, unless told otherwise. */
const load = (options: LoadOptions = {}) => loadConfig({ env: {}, ...options, flags: { DATA_DIR: options.flags?.DATA_DIR ?? dataDir(), ...options.flags } });

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("defaults", () => {
  test("every key has its table default", () => {
    const config = load();
    for (const key of Object.keys(CONFIG_KEYS) as (keyof typeof CONFIG_KEYS)[]) {
      if (key === "BASE_URL" || key === "APP_ALLOWED_HOSTS") continue; // derived below
      expect(config[key]).toEqual(CONFIG_KEYS[key].default as never);
    }
    expect(config.PORT).toBe(5000);
    expect(config.MAX_CONTENT_LENGTH).toBe(10 * 1024 * 1024);
    expect(config.RDM_FILES_DEFAULT_MAX_FILE_SIZE).toBe(50 * 1024 ** 3);
  });

  test("BASE_URL is https://HOST:PORT and a loopback host allows the loopback names", () => {
    const config = load();
    expect(config.BASE_URL).toBe("https://127.0.0.1:5000");
    expect(config.APP_ALLOWED_HOSTS).toEqual(["127.0.0.1", "localhost", "::1"]);
  });

  test("HTTP=true makes the derived BASE_URL http://", () => {
    expect(load({ env: { CAIRN_HTTP: "true" } }).BASE_URL).toBe("http://127.0.0.1:5000");
  });

  test("an IPv6 HOST is bracketed in BASE_URL and bare in the allowed hosts", () => {
    const config = load({ flags: { HOST: "::1", PORT: 8443 } });
    expect(config.BASE_URL).toBe("https://[::1]:8443");
    expect(config.APP_ALLOWED_HOSTS).toEqual(["::1", "127.0.0.1", "localhost"]);
  });

  test("an explicit BASE_URL loses its trailing slash and gives the allowed host (lowercased)", () => {
    const config = load({ env: { CAIRN_BASE_URL: "https://Data.Example.ORG/cairn/" } });
    expect(config.BASE_URL).toBe("https://data.example.org/cairn");
    expect(config.APP_ALLOWED_HOSTS).toEqual(["data.example.org"]);
  });

  test("explicit APP_ALLOWED_HOSTS are kept (lowercased), not replaced by the base host", () => {
    const config = load({ env: { CAIRN_APP_ALLOWED_HOSTS: "Example.org, 127.0.0.1" } });
    expect(config.APP_ALLOWED_HOSTS).toEqual(["example.org", "127.0.0.1"]);
  });

  test("DATA_DIR comes from the flag, then CAIRN_DATA, and is absolute", () => {
    const a = dataDir();
    const b = dataDir();
    expect(loadConfig({ env: { CAIRN_DATA: a } }).DATA_DIR).toBe(a);
    expect(loadConfig({ env: { CAIRN_DATA: a }, flags: { DATA_DIR: b } }).DATA_DIR).toBe(b);
  });
});

describe("precedence: defaults < cairn.toml < CAIRN_* env < flags", () => {
  const toml = [
    'HOST = "0.0.0.0"',
    "PORT = 6000",
    "HTTP = true",
    'APP_ALLOWED_HOSTS = ["Repo.Example.org", "localhost"]',
    'MAX_CONTENT_LENGTH = "2MiB"',
    "SEARCH_MAX_PAGE_SIZE = 50",
    'MAIL_DEFAULT_SENDER = "file@example.org"',
    "",
  ].join("\n");

  test("the data dir's cairn.toml overrides defaults", () => {
    const config = loadConfig({ env: {}, flags: { DATA_DIR: dataDir(toml) } });
    expect(config.HOST).toBe("0.0.0.0");
    expect(config.PORT).toBe(6000);
    expect(config.HTTP).toBe(true);
    expect(config.BASE_URL).toBe("http://0.0.0.0:6000");
    expect(config.APP_ALLOWED_HOSTS).toEqual(["repo.example.org", "localhost"]);
    expect(config.MAX_CONTENT_LENGTH).toBe(2 * 1024 * 1024);
    expect(config.SEARCH_MAX_PAGE_SIZE).toBe(50);
    expect(config.MAIL_DEFAULT_SENDER).toBe("file@example.org");
  });

  test("env overrides the file, flags override env", () => {
    const config = loadConfig({
      env: { CAIRN_PORT: "7000", CAIRN_SEARCH_MAX_PAGE_SIZE: "25", CAIRN_MAIL_DEFAULT_SENDER: "env@example.org" },
      flags: { DATA_DIR: dataDir(toml), PORT: 8000 },
    });
    expect(config.PORT).toBe(8000); // flag > env > file
    expect(config.SEARCH_MAX_PAGE_SIZE).toBe(25); // env > file
    expect(config.MAIL_DEFAULT_SENDER).toBe("env@example.org");
    expect(config.HOST).toBe("0.0.0.0"); // file > default
    expect(config.BASE_URL).toBe("http://0.0.0.0:8000");
  });

  test("CAIRN_DATA locates the cairn.toml when no flag is given", () => {
    expect(loadConfig({ env: { CAIRN_DATA: dataDir(toml) } }).PORT).toBe(6000);
  });

  test("an explicit config file (option or CAIRN_CONFIG) replaces the data dir's", () => {
    const other = join(dataDir(), "other.toml");
    writeFileSync(other, "PORT = 6100\n");
    expect(loadConfig({ env: {}, configFile: other, flags: { DATA_DIR: dataDir(toml) } }).PORT).toBe(6100);
    expect(loadConfig({ env: { CAIRN_CONFIG: other }, flags: { DATA_DIR: dataDir(toml) } }).PORT).toBe(6100);
  });

  test("no cairn.toml in the data dir is fine", () => {
    expect(load().PORT).toBe(5000);
  });
});

describe("value parsing", () => {
  test.each([
    ["127.0.0.1,example.org", ["127.0.0.1", "example.org"]],
    [" a.org , ,b.org ,", ["a.org", "b.org"]],
    ["", []],
  ])("list from env %p", (raw, expected) => {
    expect(load({ env: { CAIRN_RECORDS_RESOURCES_FILES_ALLOWED_DOMAINS: raw } }).RECORDS_RESOURCES_FILES_ALLOWED_DOMAINS).toEqual(expected);
  });

  test.each([
    ["10485760", 10485760],
    ["0", 0],
    ["10MiB", 10 * 1024 ** 2],
    ["10 mb", 10 * 1024 ** 2],
    ["50GB", 50 * 1024 ** 3],
    ["1.5k", 1536],
    ["2TiB", 2 * 1024 ** 4],
    ["512b", 512],
  ])("size %p is %p bytes", (raw, expected) => {
    expect(load({ env: { CAIRN_MAX_CONTENT_LENGTH: raw } }).MAX_CONTENT_LENGTH).toBe(expected);
  });

  test("a size may be a plain number from a flag or the file", () => {
    expect(load({ flags: { RDM_FILES_DEFAULT_MAX_FILE_SIZE: 1234 } }).RDM_FILES_DEFAULT_MAX_FILE_SIZE).toBe(1234);
    const dir = dataDir("RDM_FILES_DEFAULT_MAX_FILE_SIZE = 4096\n");
    expect(loadConfig({ env: {}, flags: { DATA_DIR: dir } }).RDM_FILES_DEFAULT_MAX_FILE_SIZE).toBe(4096);
  });

  test.each([
    ["1", true],
    ["true", true],
    ["YES", true],
    [" on ", true],
    ["0", false],
    ["False", false],
    ["no", false],
    ["off", false],
  ])("boolean %p is %p", (raw, expected) => {
    expect(load({ env: { CAIRN_LOG_REQUESTS: raw } }).LOG_REQUESTS).toBe(expected);
  });

  test("integers accept surrounding spaces and negative signs; strings take numbers", () => {
    expect(load({ env: { CAIRN_JOBS_RETENTION_DAYS: " 30 " } }).JOBS_RETENTION_DAYS).toBe(30);
    expect(load({ env: { CAIRN_JOBS_RETENTION_DAYS: "-1" } }).JOBS_RETENTION_DAYS).toBe(-1);
    expect(load({ flags: { DATACITE_PREFIX: 10.1234 } }).DATACITE_PREFIX).toBe("10.1234");
  });

  test("describeConfig lists every key with its default as text", () => {
    const rows = describeConfig();
    expect(rows.map((r) => r.key)).toEqual(Object.keys(CONFIG_KEYS) as never);
    expect(rows.find((r) => r.key === "PORT")).toMatchObject({ kind: "integer", default: "5000" });
    expect(rows.find((r) => r.key === "APP_ALLOWED_HOSTS")).toMatchObject({ kind: "list", default: "" });
  });
});

describe("ConfigError", () => {
  const cases: { name: string; options: () => LoadOptions; message: string | RegExp }[] = [
    {
      name: "unknown key in the file",
      options: () => ({ flags: { DATA_DIR: dataDir("PORT = 1\nNOT_A_KEY = 2\n") } }),
      message: /^config file .*cairn\.toml: unknown key NOT_A_KEY$/,
    },
    {
      name: "bad integer in env",
      options: () => ({ env: { CAIRN_PORT: "80a" } }),
      message: 'PORT from CAIRN_PORT: expected a whole number, got "80a"',
    },
    {
      name: "fractional integer in the file",
      options: () => ({ flags: { DATA_DIR: dataDir("PORT = 80.5\n") } }),
      message: /^PORT from .*cairn\.toml: expected a whole number, got 80\.5$/,
    },
    {
      name: "bad boolean",
      options: () => ({ env: { CAIRN_HTTP: "maybe" } }),
      message: 'HTTP from CAIRN_HTTP: expected true or false, got "maybe"',
    },
    {
      name: "bad boolean type from a flag",
      options: () => ({ flags: { HTTP: 1 } }),
      message: "HTTP from the command line: expected true or false, got 1",
    },
    {
      name: "bad size unit",
      options: () => ({ env: { CAIRN_MAX_CONTENT_LENGTH: "10XB" } }),
      message: 'MAX_CONTENT_LENGTH from CAIRN_MAX_CONTENT_LENGTH: expected a size such as 10485760, 10MiB or 50GB, got "10XB"',
    },
    {
      name: "size with a unit that is an Object.prototype member",
      options: () => ({ env: { CAIRN_MAX_CONTENT_LENGTH: "10constructor" } }),
      message: 'MAX_CONTENT_LENGTH from CAIRN_MAX_CONTENT_LENGTH: expected a size such as 10485760, 10MiB or 50GB, got "10constructor"',
    },
    {
      name: "negative size",
      options: () => ({ flags: { MAX_CONTENT_LENGTH: -5 } }),
      message: /^MAX_CONTENT_LENGTH from the command line: expected a size/,
    },
    {
      name: "list of non-strings in the file",
      options: () => ({ flags: { DATA_DIR: dataDir("APP_ALLOWED_HOSTS = [1, 2]\n") } }),
      message: /^APP_ALLOWED_HOSTS from .*: expected a list of strings, got \[1,2\]$/,
    },
    {
      name: "invalid TOML",
      options: () => ({ flags: { DATA_DIR: dataDir("PORT = = 3\n") } }),
      message: /^config file .*cairn\.toml is not valid TOML: /,
    },
    {
      name: "missing explicit config file",
      options: () => ({ configFile: join(root, "nope.toml") }),
      message: `config file ${join(root, "nope.toml")} does not exist`,
    },
    {
      name: "missing CAIRN_CONFIG file",
      options: () => ({ env: { CAIRN_CONFIG: join(root, "nope2.toml") } }),
      message: `config file ${join(root, "nope2.toml")} does not exist`,
    },
    {
      name: "BASE_URL that is not a URL",
      options: () => ({ env: { CAIRN_BASE_URL: "not a url" } }),
      message: "BASE_URL is not a URL: not a url",
    },
    {
      name: "BASE_URL with another scheme",
      options: () => ({ env: { CAIRN_BASE_URL: "ftp://example.org" } }),
      message: "BASE_URL must start with http:// or https://",
    },
    {
      name: "TLS_CERT without TLS_KEY",
      options: () => ({ env: { CAIRN_TLS_CERT: "/etc/cert.pem" } }),
      message: "TLS_CERT and TLS_KEY go together",
    },
    {
      name: "TLS_KEY without TLS_CERT",
      options: () => ({ flags: { TLS_KEY: "/etc/key.pem" } }),
      message: "TLS_CERT and TLS_KEY go together",
    },
    {
      name: "PORT out of range",
      options: () => ({ flags: { PORT: 70000 } }),
      message: "PORT must be 0-65535, got 70000",
    },
    { name: "WORKERS zero", options: () => ({ env: { CAIRN_WORKERS: "0" } }), message: 'WORKERS must be a number of processes (1-999) or auto, got "0"' },
    { name: "WORKERS a word", options: () => ({ flags: { WORKERS: "all" } }), message: 'WORKERS must be a number of processes (1-999) or auto, got "all"' },
    {
      name: "page size below 1",
      options: () => ({ env: { CAIRN_SEARCH_MAX_PAGE_SIZE: "0" } }),
      message: "SEARCH_MAX_PAGE_SIZE must be at least 1, got 0",
    },
    { name: "FILES_STORAGE other than local or s3", options: () => ({ env: { CAIRN_FILES_STORAGE: "azure" } }), message: 'FILES_STORAGE must be local or s3, got "azure"' },
    { name: "FILES_STORAGE s3 without a bucket", options: () => ({ env: { CAIRN_FILES_STORAGE: "s3" } }), message: "S3_BUCKET is required when FILES_STORAGE is s3" },
    {
      name: "S3_ENDPOINT with a path",
      options: () => ({ env: { CAIRN_S3_ENDPOINT: "https://s3.example.org/bucket" } }),
      message: "S3_ENDPOINT must be a URL such as https://s3.example.org:9000, got https://s3.example.org/bucket",
    },
  ];

  test.each(cases)("$name", ({ options, message }) => {
    const err = configError(() => load(options()));
    if (typeof message === "string") expect(err.message).toBe(message);
    else expect(err.message).toMatch(message);
  });

  test("WORKERS takes a number or auto, which is the number of cores", () => {
    expect([load({}).WORKERS, load({ env: { CAIRN_WORKERS: "4" } }).WORKERS, load({ flags: { WORKERS: "auto" } }).WORKERS]).toEqual(["1", "4", "auto"]);
    expect([workerCount("1"), workerCount("12"), workerCount("auto", 16), workerCount("auto", 0)]).toEqual([1, 12, 16, 1]);
    expect([kernelBalancesPorts("linux"), kernelBalancesPorts("darwin"), kernelBalancesPorts("win32")]).toEqual([true, false, false]);
    expect([workerRole({}), workerRole({ CAIRN_WORKER_OF: "2:4100" }), workerRole({ CAIRN_WORKER_OF: "two" })]).toEqual([null, { index: 2, supervisorPid: 4100 }, null]);
  });

  test("TLS_CERT with TLS_KEY is accepted", () => {
    const config = load({ env: { CAIRN_TLS_CERT: "/etc/cert.pem", CAIRN_TLS_KEY: "/etc/key.pem" } });
    expect([config.TLS_CERT, config.TLS_KEY]).toEqual(["/etc/cert.pem", "/etc/key.pem"]);
  });
});

describe("RDM_SEARCH_SORT_OPTIONS", () => {
  test.each([
    ["newest,colour", "RDM_SEARCH_SORT_OPTIONS: unknown option(s) colour; known: bestmatch, newest, oldest, updated-desc, updated-asc, version, mostviewed, mostdownloaded"],
    ["oldest", "RDM_SEARCH_SORT_OPTIONS must keep newest, the default sort without a query"],
  ])("%s is refused", (value, message) => {
    expect(() => loadConfig({ flags: { DATA_DIR: "/tmp/cairn-config-test" }, env: { CAIRN_RDM_SEARCH_SORT_OPTIONS: value } })).toThrow(message);
  });
});
