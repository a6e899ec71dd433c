// Queries on the users table.
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/connection";
import { usersTable } from "../db/tables";

export type UserRow = typeof usersTable.$inferSelect;
export type NewUserRow = typeof usersTable.$inferInsert;

export const findUserById = (db: Db, id: number) => db.select().from(usersTable).where(eq(usersTable.id, id)).get();

export const findUserByEmail = (db: Db, email: string) =>
  db.select().from(usersTable).where(sql`lower(${usersTable.email}) = ${email.toLowerCase()}`).get();

export const findUserByUsername = (db: Db, username: string) =>
  db.select().from(usersTable).where(sql`lower(${usersTable.username}) = ${username.toLowerCase()}`).get();

export const insertUser = (db: Db, row: NewUserRow) => db.insert(usersTable).values(row).returning().get();

export const listUsers = (db: Db) => db.select().from(usersTable).orderBy(asc(usersTable.id)).all();

export const countAdmins = (db: Db) =>
  db.select({ n: sql<number>`count(*)` }).from(usersTable).where(eq(usersTable.isAdmin, true)).get()?.n ?? 0;
