// Who may see which records, as a SQL filter so listings never hold rows the caller may not read.
import { eq, or, sql, type SQL } from "drizzle-orm";
import { isAdmin, type Actor } from "../core/actor";
import { recordsTable } from "../db/tables";

/** Published records the actor may read: public ones, their own, or all for administrators. */
export function readablePublishedFilter(actor: Actor): SQL {
  const published = sql`${recordsTable.isPublished} = 1`;
  if (isAdmin(actor)) return published;
  const visible = actor.kind === "user" ? or(eq(recordsTable.accessRecord, "public"), eq(recordsTable.ownerId, actor.userId))! : eq(recordsTable.accessRecord, "public");
  return sql`${published} AND (${visible})`;
}
