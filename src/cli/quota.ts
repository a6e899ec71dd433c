// `cairn users quota --login L [--size S [--max-file-size S] [--notes "…"]]`: a user's storage
// quota set (audited as the system, via the CLI), or shown with what their files take.
import { parseSize } from "../config";
import { systemActor } from "../core/actor";
import type { QuotaUsage } from "../quotas/model";
import { parse, requireString, UsageError } from "./args";
import { withServices } from "./services";

function sizeOption(values: Record<string, unknown>, name: string): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const size = typeof raw === "string" ? parseSize(raw) : null;
  if (size === null) throw new UsageError(`--${name} must be a size such as 10737418240, 10GiB or 20GB (units of 1024), got '${String(raw)}'`);
  return size;
}

const describe = (email: string, id: number, q: QuotaUsage) =>
  `${email} (id ${id}): ${q.used} bytes used of ${q.quota_size === 0 ? "no limit" : `${q.quota_size} bytes`}` +
  `${q.custom ? " (set by an administrator)" : " (the default)"}; largest file ${q.max_file_size} bytes${q.notes ? `; notes: ${q.notes}` : ""}`;

export async function runQuota(argv: string[]): Promise<number> {
  const { values } = parse(argv, { login: { type: "string" }, size: { type: "string" }, "max-file-size": { type: "string" }, notes: { type: "string" } });
  const login = requireString(values, "login");
  const size = sizeOption(values, "size");
  const maxFileSize = sizeOption(values, "max-file-size");
  if (size === undefined && (maxFileSize !== undefined || values.notes !== undefined)) throw new UsageError("--max-file-size and --notes need --size");
  const line = await withServices(values, async (s) => {
    const id = await s.userAdmin.userIdOf(systemActor, login);
    const email = (await s.users.findUserById(id))!.email;
    if (size !== undefined)
      await s.quotas.setUserQuota(systemActor, id, { quota_size: size, max_file_size: maxFileSize ?? null, notes: values.notes ?? "" }, { via: "cli", address: null });
    return describe(email, id, await s.quotas.readUserUsage(systemActor, id));
  });
  console.log(line);
  return 0;
}
