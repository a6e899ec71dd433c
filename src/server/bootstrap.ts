// First start: an administrator account and token, written to a file only the owner can read.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { systemActor } from "../core/actor";
import type { Services } from "../app";

/** Creates the first administrator (ADMIN_EMAIL) when there is none; returns its address and the credentials file, or null. */
export async function ensureAdministrator(services: Services): Promise<{ email: string; path: string } | null> {
  if ((await services.users.countAdmins()) > 0) return null;
  const password = randomBytes(18).toString("base64url");
  const email = services.deps.config.ADMIN_EMAIL;
  const user = await services.users.createUser(systemActor, { email, username: "admin", password, fullName: "Administrator", admin: true });
  const { secret } = await services.tokens.createToken(systemActor, { userId: user.id, name: "first-start" });
  const path = join(services.deps.config.DATA_DIR, "admin-credentials.txt");
  const text = [
    "# Cairn administrator, created on first start. Keep this file private; delete it once noted.",
    `email=${email}`,
    `password=${password}`,
    `token=${secret}`,
    `# Try it: curl -k -H "Authorization: Bearer ${secret}" ${services.deps.config.BASE_URL}/api/records`,
    "",
  ].join("\n");
  writeFileSync(path, text, { mode: 0o600 });
  return { email, path };
}
