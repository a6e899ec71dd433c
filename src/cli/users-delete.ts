// `cairn users delete --login L --records keep|remove` and `cairn users reset-password --login L`:
// the administration's delete and password-reset link, as the system via the CLI (audited alike).
import { systemActor } from "../core/actor";
import { DELETE_RECORDS_CHOICES } from "../users/model";
import { parse, requireString, UsageError } from "./args";
import { withServices } from "./services";

const CLI = { via: "cli" as const, address: null };

/** The choice is required: deleting someone's records by default would be one typo from a disaster. */
export async function runDelete(argv: string[]): Promise<number> {
  const { values } = parse(argv, { login: { type: "string" }, records: { type: "string" } });
  const login = requireString(values, "login");
  const records = values.records;
  if (records === undefined || !(DELETE_RECORDS_CHOICES as readonly string[]).includes(records)) {
    throw new UsageError("--records keep|remove is required: keep the published records under a placeholder owner, or remove them with tombstones (reason spam)");
  }
  const done = await withServices(values, async (s) => s.userAdmin.delete(systemActor, await s.userAdmin.userIdOf(systemActor, login), { records }, CLI));
  const what = records === "keep" ? "kept under the placeholder owner" : "removed (tombstoned as spam)";
  console.log(`deleted: ${done.email} (id ${done.id}): ${done.published} published records ${what}, ${done.drafts} drafts deleted, ${done.closed_requests} requests cancelled`);
  return 0;
}

export async function runResetPassword(argv: string[]): Promise<number> {
  const { values } = parse(argv, { login: { type: "string" } });
  const login = requireString(values, "login");
  const user = await withServices(values, async (s) => s.userAdmin.sendPasswordReset(systemActor, await s.userAdmin.userIdOf(systemActor, login), CLI));
  console.log(`password-reset link sent to ${user.email} (id ${user.id})`);
  return 0;
}
