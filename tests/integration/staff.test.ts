import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STAFF_FLAGS, type AdminRecord, type StaffRow } from "../../protocol/wire.js";
import type { Db } from "../../platform/db/index.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { call, createAdmin, createUser, expectRefused, footprint, freshIp, houseId, login, testApp, testDb } from "./support/platform.js";

let app: FastifyInstance;
let db: Db;
let admin: string;

beforeAll(async () => {
  db = await testDb();
  app = await testApp();
  admin = await login(app, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp());
});
afterAll(() => app.close());

const noFlags = Object.fromEntries(STAFF_FLAGS.map((flag) => [flag, false]));
let counter = 0;
const freshName = () => `staff_${Date.now() % 1_000_000}_${(counter += 1)}`;

async function addStaff(permissions: Record<string, boolean>) {
  const username = freshName();
  const password = "s3cret-pass";
  const reply = await call<{ _id: string }>(app, "POST", "/b2c/add-admin", { token: admin, body: { username, password, permissions } });
  return { reply, username, password };
}

describe("POST /b2c/add-admin", () => {
  it("adds a staff member with exactly the flags given, who signs in and holds only them", async () => {
    const { reply, username, password } = await addStaff({ deposits: true, report: false });
    expect({ statusCode: reply.statusCode, msg: reply.msg }).toEqual({ statusCode: 200, msg: "Admin added successfully" });

    const list = (await call<StaffRow[]>(app, "GET", "/b2c/admins", { token: admin })).data!;
    expect(list.find((row) => row.username === username)).toEqual({
      _id: reply.data!._id,
      username,
      createdAt: expect.any(String),
      permissions: { ...noFlags, deposits: true },
    });

    const token = await login(app, username, password, freshIp());
    const record = (await call<AdminRecord>(app, "GET", "/b2c/admin", { token })).data!;
    expect(record).toMatchObject({ role: 2, username });
    expect(JSON.parse(record.permissions)).toMatchObject({ ...noFlags, deposits: true });
    expect((await call(app, "GET", "/b2c/deposits/0", { token })).statusCode).toBe(200);
    expect((await call(app, "GET", "/users", { token })).statusCode).toBe(403);

    const audit = await db.selectFrom("audit_log").selectAll().where("action", "=", "staff.add").orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_id: await houseId(), target_kind: "admin", target_ids: [reply.data!._id], change: { before: null, after: { username, permissions: { ...noFlags, deposits: true } } } });
  });

  it("refuses a username an admin or an end user holds, whatever its case, with 409", async () => {
    const user = await createUser(await houseId());
    for (const username of [DEMO_ACCOUNTS.staff.username.toUpperCase(), user.username]) {
      await expectRefused(footprint, () => call(app, "POST", "/b2c/add-admin", { token: admin, body: { username, password: "s3cret-pass", permissions: {} } }), { statusCode: 409, msg: "Username already exists" });
    }
  });

  it.each([
    [{ username: "ab", password: "s3cret-pass", permissions: {} }, "username: Username must be 3 to 32 characters"],
    [{ username: "bad name", password: "s3cret-pass", permissions: {} }, "username: Username may hold only letters, digits, _ . and -"],
    [{ username: "newstaff", password: "short", permissions: {} }, "password: Password must be 6 to 128 characters"],
    [{ username: "newstaff", password: "s3cret-pass" }, "permissions: Required"],
    [{ username: "newstaff", password: "s3cret-pass", permissions: { cricket: true } }, "permissions: Unrecognized key(s) in object: 'cricket'"],
    [{ username: "newstaff", password: "s3cret-pass", permissions: { superAdmin: true } }, "permissions: Unrecognized key(s) in object: 'superAdmin'"],
    [{ username: "newstaff", password: "s3cret-pass", permissions: { users: "yes" } }, "permissions.users: Expected boolean, received string"],
    [{ username: "newstaff", password: "s3cret-pass", permissions: {}, role: 1 }, "body: Unrecognized key(s) in object: 'role'"],
  ])("refuses %j with 400 naming the field, changing nothing", async (body, msg) => {
    await expectRefused(footprint, () => call(app, "POST", "/b2c/add-admin", { token: admin, body }), { statusCode: 400, msg });
  });
});

describe("GET /b2c/remove-admin/{id}", () => {
  it("removes a staff member and ends its sessions at once", async () => {
    const { reply: added, username, password } = await addStaff({ users: true });
    const token = await login(app, username, password, freshIp());
    const { udid } = (await call<AdminRecord>(app, "GET", "/b2c/admin", { token })).data!;

    const reply = await call(app, "GET", `/b2c/remove-admin/${added.data!._id}`, { token: admin });
    expect({ statusCode: reply.statusCode, msg: reply.msg }).toEqual({ statusCode: 200, msg: "Admin removed successfully" });

    const next = await call(app, "GET", "/users", { token });
    expect({ statusCode: next.statusCode, msg: next.msg }).toEqual({ statusCode: 401, msg: "Admin not found" });
    expect((await call(app, "GET", `/is-logouted/${udid}`, { token })).data).toBe(true);
    const signIn = await call(app, "POST", "/login", { body: { username, password }, ip: freshIp() });
    expect({ statusCode: signIn.statusCode, msg: signIn.msg }).toEqual({ statusCode: 401, msg: "Invalid username or password" });
    const list = (await call<StaffRow[]>(app, "GET", "/b2c/admins", { token: admin })).data!;
    expect(list.map((row) => row.username)).not.toContain(username);

    const audit = await db.selectFrom("audit_log").selectAll().where("action", "=", "staff.remove").orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ target_ids: [added.data!._id], change: { before: { username, permissions: { ...noFlags, users: true } }, after: null } });

    const again = await call(app, "GET", `/b2c/remove-admin/${added.data!._id}`, { token: admin });
    expect({ statusCode: again.statusCode, msg: again.msg }).toEqual({ statusCode: 404, msg: "Staff not found" });
  });

  it("refuses removing yourself, a super admin or a partner, changing nothing", async () => {
    const self = (await call<AdminRecord>(app, "GET", "/b2c/admin", { token: admin })).data!._id;
    const otherSuperAdmin = await createAdmin({ role: 1 });
    const partner = await createAdmin({ role: 3 });
    for (const [id, msg] of [
      [self, "You cannot remove yourself"],
      [String(otherSuperAdmin.id), "Only staff accounts can be removed here"],
      [String(partner.id), "Only staff accounts can be removed here"],
    ] as const) {
      await expectRefused(footprint, () => call(app, "GET", `/b2c/remove-admin/${id}`, { token: admin }), { statusCode: 400, msg });
    }
    expect((await call(app, "GET", "/partners", { token: await login(app, partner.username, partner.password, freshIp()) })).statusCode).toBe(200);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    expect((await call(app, "GET", "/b2c/remove-admin/999999999", { token: admin })).statusCode).toBe(404);
    const reply = await call(app, "GET", "/b2c/remove-admin/abc", { token: admin });
    expect({ statusCode: reply.statusCode, msg: reply.msg }).toEqual({ statusCode: 400, msg: "id: Invalid id" });
  });
});
