// The AccessWriter the access-request types use inside the requests engine's transaction: a user
// grant (replacing the user's previous one) and a secret link whose token opens the record.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createAccessDirectory } from "../../src/access/directory";
import { createAccessWriter } from "../../src/access/writer";
import { DAY_MS } from "../../src/core/time";
import { createAccessTestApp, FILE_KEY, type AccessTestApp } from "../helpers/access";

let t: AccessTestApp;
let writer: ReturnType<typeof createAccessWriter>;
beforeAll(async () => {
  t = await createAccessTestApp();
  const db = t.services.deps.db;
  writer = createAccessWriter(db, createAccessDirectory(db, t.clock).tokens);
});
afterAll(() => t.close());

test("grantUser gives the user the permission on every version until expiresAt, and replaces its grant", async () => {
  const id = await t.restrictedRecord();
  const now = t.clock.now();
  const db = t.services.deps.db;
  await db.write(async () => writer.grantUser({ recordId: id, userId: t.ids.carol!, permission: "view", expiresAt: now + DAY_MS, origin: "request:r1", now }));
  expect((await t.call("GET", `/api/records/${id}/files/${FILE_KEY}/content`, { as: "carol" })).status).toBe(200);
  const grants = await t.call("GET", `/api/records/${id}/access/users`, { as: "alice" });
  expect(grants.json.hits.hits).toEqual([{ id: 0, subject: { type: "user", id: t.ids.carol }, permission: "view", origin: "request:r1", expires_at: t.dayAfter(1) }]);
  // Replaced, not added: one grant per subject.
  await writer.grantUser({ recordId: id, userId: t.ids.carol!, permission: "preview", expiresAt: null, origin: "request:r2", now });
  const again = await t.call("GET", `/api/records/${id}/access/users`, { as: "alice" });
  expect(again.json.hits.hits).toEqual([{ id: 0, subject: { type: "user", id: t.ids.carol }, permission: "preview", origin: "request:r2" }]);
  t.clock.advance(2 * DAY_MS);
  expect((await t.call("GET", `/api/records/${id}`, { as: "carol" })).status).toBe(200);
});

test("createLink returns the id and a token that opens the record until the link expires", async () => {
  const id = await t.restrictedRecord();
  const now = t.clock.now();
  const link = await writer.createLink({ recordId: id, permission: "view", expiresAt: now + DAY_MS, description: "Access request", origin: "request:r3", now });
  expect(link.id).toMatch(/^[0-9a-f-]{36}$/);
  expect((await t.call("GET", `/api/records/${id}/files/${FILE_KEY}/content?token=${link.token}`)).status).toBe(200);
  const listed = await t.call("GET", `/api/records/${id}/access/links/${link.id}`, { as: "alice" });
  expect(listed.json).toMatchObject({ id: link.id, permission: "view", description: "Access request", origin: "request:r3" });
  t.clock.advance(DAY_MS);
  expect((await t.call("GET", `/api/records/${id}?token=${link.token}`)).status).toBe(401);
});

test("an unknown record is a 404 error, nothing written", async () => {
  const now = t.clock.now();
  await expect(writer.grantUser({ recordId: "zzzzz-zzzzz", userId: t.ids.carol!, permission: "view", expiresAt: null, origin: "x", now })).rejects.toThrow(
    "The persistent identifier does not exist.",
  );
  await expect(writer.createLink({ recordId: "zzzzz-zzzzz", permission: "view", expiresAt: null, description: "", origin: "x", now })).rejects.toThrow(
    "The persistent identifier does not exist.",
  );
});
