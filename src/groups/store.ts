// Queries on the groups and group_members tables.
import { asc, eq, sql } from "drizzle-orm";
import { changesOf, type Db } from "../db/connection";
import { groupMembersTable, groupsTable } from "../db/tables";

export type GroupRow = typeof groupsTable.$inferSelect;

export const insertGroup = (db: Db, row: typeof groupsTable.$inferInsert) => db.insert(groupsTable).values(row).returning().get();

export const findGroupByName = (db: Db, name: string) =>
  db.select().from(groupsTable).where(sql`lower(${groupsTable.name}) = ${name.toLowerCase()}`).get();

export const findGroupById = (db: Db, id: string) => db.select().from(groupsTable).where(eq(groupsTable.id, id)).get();

export const listGroups = (db: Db) => db.select().from(groupsTable).orderBy(asc(groupsTable.name)).all();

/** Adds a member; returns false when the user already was one. */
export const insertGroupMember = (db: Db, groupId: string, userId: number, at: number) =>
  changesOf(db.insert(groupMembersTable).values({ groupId, userId, created: at }).onConflictDoNothing().run()) > 0;
