// A directory for the tests: Debian's OpenLDAP server (slapd, an independent implementation) in a
// temporary folder, listening on 127.0.0.1 (ldap:// with StartTLS, and ldaps://) on free ports,
// with an mdb database under dc=uni,dc=example, a service account that may search, the memberof
// overlay (groupOfNames members show memberOf on the person's entry), {SSHA} passwords made by
// slappasswd and a certificate made by openssl. Entries are added with ldapadd, as its root.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeCertificates, OPENSSL } from "./certificates";
import { freePort } from "./free-port";

export const SUFFIX = "dc=uni,dc=example";
export const PEOPLE = `ou=people,${SUFFIX}`;
export const GROUPS = `ou=groups,${SUFFIX}`;
export const SERVICE_DN = `cn=cairn,ou=services,${SUFFIX}`;
export const SERVICE_PASSWORD = "service-account-password";
const ROOT_DN = `cn=admin,${SUFFIX}`;
const ROOT_PASSWORD = "root-password";
// By their full paths: /usr/sbin is not on every PATH (a CI runner's, a fresh clone's).
const SLAPD = "/usr/sbin/slapd";
const SLAPPASSWD = "/usr/sbin/slappasswd";
const LDAPADD = "/usr/bin/ldapadd";
const LDAPMODIFY = "/usr/bin/ldapmodify";

export interface DirectoryPerson {
  uid: string;
  password: string;
  cn: string;
  sn: string;
  mail?: string;
  displayName?: string;
  o?: string;
}

/** Why the directory tests cannot run here, or null: slapd and its tools are installed. */
export function slapdMissing(): string | null {
  for (const tool of [SLAPD, LDAPADD, LDAPMODIFY, SLAPPASSWD, OPENSSL]) {
    if (!existsSync(tool)) return `${tool} is not installed (Debian: apt-get install slapd ldap-utils openssl): the LDAP sign-in tests are skipped.`;
  }
  return null;
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.end(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

function run(cmd: string[], stdin?: string): string {
  const result = Bun.spawnSync(cmd, { stdin: stdin === undefined ? "ignore" : Buffer.from(stdin), stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${cmd[0]} failed (${result.exitCode}): ${result.stderr.toString()}`);
  return result.stdout.toString();
}

export type TestSlapd = Awaited<ReturnType<typeof startSlapd>>;

export async function startSlapd() {
  const dir = mkdtempSync(join(tmpdir(), "cairn-slapd-"));
  mkdirSync(join(dir, "data"));
  const tls = makeCertificates(dir, "Test directory CA");
  const conf = join(dir, "slapd.conf");
  writeFileSync(
    conf,
    [
      "include /etc/ldap/schema/core.schema",
      "include /etc/ldap/schema/cosine.schema",
      "include /etc/ldap/schema/inetorgperson.schema",
      "modulepath /usr/lib/ldap",
      "moduleload back_mdb",
      "moduleload memberof",
      `pidfile ${join(dir, "slapd.pid")}`,
      `argsfile ${join(dir, "slapd.args")}`,
      `TLSCACertificateFile ${tls.ca}`,
      `TLSCertificateFile ${tls.cert}`,
      `TLSCertificateKeyFile ${tls.key}`,
      // A DN with an empty password is an anonymous bind that "succeeds" (RFC 4513 5.1.2): some
      // directories allow it, so this one does too, and Cairn must refuse an empty password itself.
      "allow bind_anon_dn",
      "database mdb",
      `suffix "${SUFFIX}"`,
      `rootdn "${ROOT_DN}"`,
      `rootpw ${ROOT_PASSWORD}`,
      `directory ${join(dir, "data")}`,
      "overlay memberof",
      // Passwords are only for binding; only the service account (and each person, their own entry) reads entries.
      "access to attrs=userPassword by anonymous auth by self write by * none",
      `access to * by dn.exact="${SERVICE_DN}" read by self read by * none`,
      "",
    ].join("\n"),
  );
  const [port, securePort] = [freePort(), freePort()];
  const urls = `ldap://127.0.0.1:${port}/ ldaps://127.0.0.1:${securePort}/`;
  let proc = Bun.spawn([SLAPD, "-f", conf, "-h", urls, "-d", "0"], { stdout: "ignore", stderr: "pipe" });
  const waitReady = async () => {
    for (let i = 0; i < 200; i++) {
      if (proc.exitCode !== null) throw new Error(`slapd exited (${proc.exitCode}): ${await new Response(proc.stderr).text()}`);
      if ((await canConnect(port)) && (await canConnect(securePort))) return;
      await Bun.sleep(25);
    }
    throw new Error("slapd did not start listening within 5 seconds");
  };
  const ldapadd = (ldif: string) => run([LDAPADD, "-x", "-H", `ldap://127.0.0.1:${port}`, "-D", ROOT_DN, "-w", ROOT_PASSWORD], ldif);
  const ldapmodify = (ldif: string) => run([LDAPMODIFY, "-x", "-H", `ldap://127.0.0.1:${port}`, "-D", ROOT_DN, "-w", ROOT_PASSWORD], ldif);
  const ssha = (password: string) => run([SLAPPASSWD, "-h", "{SSHA}", "-s", password]).trim();

  try {
    await waitReady();
    ldapadd(
      [
        `dn: ${SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\no: University\ndc: uni\n`,
        `dn: ou=people,${SUFFIX}\nobjectClass: organizationalUnit\nou: people\n`,
        `dn: ou=groups,${SUFFIX}\nobjectClass: organizationalUnit\nou: groups\n`,
        `dn: ou=services,${SUFFIX}\nobjectClass: organizationalUnit\nou: services\n`,
        `dn: ${SERVICE_DN}\nobjectClass: person\ncn: cairn\nsn: service\nuserPassword: ${ssha(SERVICE_PASSWORD)}\n`,
      ].join("\n"),
    );
  } catch (err) {
    // No server left behind by a start that failed half-way.
    proc.kill();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  return {
    /** ldap:// (StartTLS offered). */
    url: `ldap://127.0.0.1:${port}`,
    /** ldaps://, its certificate for 127.0.0.1 signed by `caFile`. */
    secureUrl: `ldaps://127.0.0.1:${securePort}`,
    caFile: tls.ca,

    /** Adds a person under ou=people (inetOrgPerson, {SSHA} password); returns the entry's DN. */
    addPerson(p: DirectoryPerson): string {
      const dn = `uid=${p.uid},${PEOPLE}`;
      const lines = [`dn: ${dn}`, "objectClass: inetOrgPerson", `uid: ${p.uid}`, `cn: ${p.cn}`, `sn: ${p.sn}`, `userPassword: ${ssha(p.password)}`];
      if (p.mail) lines.push(`mail: ${p.mail}`);
      if (p.displayName) lines.push(`displayName: ${p.displayName}`);
      if (p.o) lines.push(`o: ${p.o}`);
      ldapadd(lines.join("\n") + "\n");
      return dn;
    },

    /** Adds a groupOfNames under ou=groups with these members (the overlay gives each member memberOf). */
    addGroup(cn: string, memberDns: string[]) {
      ldapadd([`dn: cn=${cn},${GROUPS}`, "objectClass: groupOfNames", `cn: ${cn}`, ...memberDns.map((m) => `member: ${m}`)].join("\n") + "\n");
    },

    /** Removes a member from a group. */
    removeMember(cn: string, memberDn: string) {
      ldapmodify(`dn: cn=${cn},${GROUPS}\nchangetype: modify\ndelete: member\nmember: ${memberDn}\n`);
    },

    /** Renames an entry (a new RDN), as when a person's uid changes. */
    rename(dn: string, newRdn: string) {
      ldapmodify(`dn: ${dn}\nchangetype: modrdn\nnewrdn: ${newRdn}\ndeleteoldrdn: 1\n`);
    },

    /** The entry's entryUUID (an operational attribute), read as the root. */
    entryUuid(dn: string): string {
      const out = run(["ldapsearch", "-x", "-LLL", "-H", `ldap://127.0.0.1:${port}`, "-D", ROOT_DN, "-w", ROOT_PASSWORD, "-b", dn, "-s", "base", "entryUUID"]);
      return /entryUUID: (\S+)/.exec(out)![1]!;
    },

    /** Stops the server (the directory is then unreachable) and starts it again on the same ports. */
    async stop() {
      proc.kill();
      await proc.exited;
    },
    async restart() {
      proc = Bun.spawn([SLAPD, "-f", conf, "-h", urls, "-d", "0"], { stdout: "ignore", stderr: "pipe" });
      await waitReady();
    },

    async close() {
      proc.kill();
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
