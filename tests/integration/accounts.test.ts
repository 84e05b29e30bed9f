import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { GAME_FLAGS, NAMED_ACCOUNTS_MAX, SEARCH_COUNT_LIMIT, type AccountPage, type Page } from "../../protocol/wire.js";
import type { Db } from "../../platform/db/index.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { REVEAL_ACTION, type PartnerRow, type UserRow } from "../../platform/modules/accounts/service.js";
import {
  call,
  createAdmin,
  createUser,
  footprint,
  freshIp,
  houseId,
  login,
  testApp,
  testDb,
  type TestAdmin,
  type TestUser,
} from "./support/platform.js";

let app: FastifyInstance;
let db: Db;

// The tree: house ─ A (top tier, 1,000.00) ─ B (second tier) ; house ─ C. Users uA, uB, uC under each.
let a: TestAdmin, b: TestAdmin, c: TestAdmin;
let uA: TestUser, uB: TestUser, uC: TestUser;
let tokens: Record<"admin" | "a" | "b" | "c" | "staffBare" | "staffUsers", string>;

const allFlags = (value: boolean) => Object.fromEntries(GAME_FLAGS.map((flag) => [flag, value]));
const shares = (value: unknown) => Object.fromEntries(GAME_FLAGS.map((flag) => [flag, value]));

beforeAll(async () => {
  db = await testDb();
  app = await testApp();
  a = await createAdmin({ role: 3, permissions: { cricket: true, football: true }, balance: 100_000n });
  b = await createAdmin({ role: 3, parent: a.id, partnerRoleLevel: 2, permissions: { cricket: true } });
  c = await createAdmin({ role: 3, balance: 100_000n });
  [uA, uB, uC] = await Promise.all([createUser(a.id, 1_000n), createUser(b.id), createUser(c.id)]);
  const staffBare = await createAdmin({ role: 2, permissions: { deposits: true } });
  const staffUsers = await createAdmin({ role: 2, permissions: { users: true } });
  const signIn = (account: { username: string; password: string }) => login(app, account.username, account.password, freshIp());
  tokens = {
    admin: await signIn(DEMO_ACCOUNTS.admin),
    a: await signIn(a),
    b: await signIn(b),
    c: await signIn(c),
    staffBare: await signIn(staffBare),
    staffUsers: await signIn(staffUsers),
  };
});
afterAll(() => app.close());

const get = <T>(path: string, token: string) => call<T>(app, "GET", path, { token });
const post = <T>(path: string, token: string, body: unknown) => call<T>(app, "POST", path, { token, body });
const ids = (page: Page<{ _id: string }> | null) => page?.items.map((row) => row._id) ?? [];

describe("hierarchy scoping", () => {
  it("shows a partner its whole subtree, and a panel's direct children with `partner`", async () => {
    const all = await get<Page<UserRow>>(`/users?pageSize=500`, tokens.a);
    expect(ids(all.data)).toEqual(expect.arrayContaining([String(uA.id), String(uB.id)]));
    expect(ids(all.data)).not.toContain(String(uC.id));

    const underB = await get<Page<UserRow>>(`/users?partner=${b.id}`, tokens.a);
    expect(ids(underB.data)).toEqual([String(uB.id)]);
    expect(underB.data).toMatchObject({ total: 1, page: 1, pageSize: 50 });

    const panels = await get<Page<PartnerRow>>(`/partners`, tokens.a);
    expect(ids(panels.data)).toEqual([String(b.id)]);
  });

  it("refuses a partner anything outside its subtree with 403, changing nothing", async () => {
    const before = await footprint();
    const refusals = [
      await get(`/users?partner=${c.id}`, tokens.a),
      await get(`/partners?partner=${c.id}`, tokens.a),
      await get(`/users?partner=${a.id}`, tokens.b),
      await get(`/download-users?partner=${c.id}`, tokens.a),
      await post("/user-deposit", tokens.a, { amount: 1, user: String(uC.id), isPartner: false }),
      await post("/user-withdraw", tokens.a, { amount: 1, user: String(uC.id) }),
      await post("/user-deposit", tokens.b, { amount: 1, user: String(a.id), isPartner: true }),
      await post("/user-deposit", tokens.a, { amount: 1, user: String(a.id), isPartner: true }),
      await get(`/user-permissions/${uC.id}`, tokens.a),
      await get(`/partner-permissions/${c.id}`, tokens.a),
      await post("/change-permissions", tokens.a, { user: String(uC.id), isPartner: false, permissions: {}, bet: true, login: true }),
      await post("/change-user-password", tokens.a, { user: String(uC.id), isPartner: false, password: "new-secret" }),
      await get(`/login-logs/${uC.id}`, tokens.a),
      await get(`/login-logs/${c.id}?isPartner=true`, tokens.a),
    ];
    for (const reply of refusals) expect(reply).toMatchObject({ statusCode: 403, status: "FAIL", msg: "Permission denied" });
    expect(await footprint()).toEqual(before);
  });

  it("refuses staff without the users flag and lets staff with it through", async () => {
    for (const path of ["/users", "/partners", "/download-users", `/user-permissions/${uA.id}`, "/b2c/default-admin"]) {
      expect(await get(path, tokens.staffBare)).toMatchObject({ statusCode: 403, status: "FAIL", msg: "Permission denied" });
    }
    const deposit = await post("/user-deposit", tokens.staffBare, { amount: 1, user: String(uA.id) });
    expect(deposit.statusCode).toBe(403);
    expect((await get<Page<UserRow>>(`/users?partner=${a.id}`, tokens.staffUsers)).data?.items.length).toBeGreaterThan(0);
    expect((await get(`/user-permissions/${uC.id}`, tokens.staffUsers)).statusCode).toBe(200);
  });

  it("answers 404 for an account that does not exist", async () => {
    expect(await get("/user-permissions/999999999", tokens.admin)).toMatchObject({ statusCode: 404, msg: "User not found" });
    expect(await get(`/partner-permissions/${uA.id}00000`, tokens.admin)).toMatchObject({ statusCode: 404, msg: "Partner not found" });
  });
});

describe("GET /users and /partners", () => {
  it("answers the row shape, with 2-decimal money, ISO times and the parent", async () => {
    const reply = await get<Page<UserRow>>(`/users?username=${uA.username.toUpperCase()}`, tokens.a);
    expect(reply.data).toEqual({
      items: [
        {
          _id: String(uA.id),
          username: uA.username,
          mobNo: "",
          balance: 10,
          bonus: 0,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          login: true,
          bet: true,
          parent: { _id: String(a.id), username: a.username },
        },
      ],
      total: 1,
      page: 1,
      pageSize: 50,
    });
    const panels = await get<Page<PartnerRow>>(`/partners?username=${b.username.slice(2)}`, tokens.admin);
    expect(panels.data?.items[0]).toMatchObject({ _id: String(b.id), roleName: "Super Master", balance: 0, bonus: 0 });
  });

  it("searches by substring, sorts with an id tie-break in both directions, and pages", async () => {
    const tag = randomUUID().slice(0, 6);
    for (const [i, amount] of [300n, 100n, 300n, 200n].entries()) {
      const user = await createUser(c.id, amount);
      await db.updateTable("users").set({ username: `s${tag}_${i}` }).where("id", "=", user.id).execute();
    }
    const page = (query: string) => get<Page<UserRow>>(`/users?username=${tag}&${query}`, tokens.admin);
    const byBalance = await page("orderBy=balance&isAcc=true");
    expect(byBalance.data?.items.map((row) => row.username)).toEqual([`s${tag}_1`, `s${tag}_3`, `s${tag}_0`, `s${tag}_2`]);
    const desc = await page("orderBy=balance&isAcc=false");
    expect(desc.data?.items.map((row) => row.username)).toEqual([`s${tag}_2`, `s${tag}_0`, `s${tag}_3`, `s${tag}_1`]);
    const second = await page("orderBy=username&isAcc=true&page=2&pageSize=3");
    expect(second.data).toMatchObject({ total: 4, page: 2, pageSize: 3, items: [{ username: `s${tag}_3` }] });
    expect((await get<Page<UserRow>>(`/users?username=%25`, tokens.admin)).data?.total).toBe(0);
  });

  it("looks accounts up by exact username or id (extension), within the caller's tree, a page's worth at most", async () => {
    const usernames = `/users?usernames=${uA.username.toUpperCase()},${uB.username},${uC.username.slice(0, -1)},nobody-${randomUUID().slice(0, 6)}`;
    const byName = await get<Page<UserRow>>(usernames, tokens.admin);
    // Exact and case-insensitive: a prefix of uC's name matches nothing, as a substring search would.
    expect(byName.data).toMatchObject({ total: 2, page: 1 });
    expect(ids(byName.data).sort()).toEqual([String(uA.id), String(uB.id)].sort());
    // Not an id here (letters) matches nothing, as an unknown id does: no refusal of the whole lookup.
    const byId = await get<Page<UserRow>>(`/users?ids=${uA.id},${uC.id},abc,999999999999`, tokens.admin);
    expect(ids(byId.data).sort()).toEqual([String(uA.id), String(uC.id)].sort());
    expect(byId.data?.total).toBe(2);
    // A partner's lookup answers their own tree alone, saying nothing of the rest.
    const mine = await get<Page<UserRow>>(`/users?ids=${uA.id},${uC.id}`, tokens.a);
    expect(ids(mine.data)).toEqual([String(uA.id)]);
    expect(mine.data?.total).toBe(1);
    const panels = await get<Page<PartnerRow>>(`/partners?usernames=${b.username},${c.username}`, tokens.a);
    expect(ids(panels.data)).toEqual([String(b.id)]);
    const tooMany = await get(`/users?ids=${Array.from({ length: NAMED_ACCOUNTS_MAX + 1 }, (_, n) => n + 1).join(",")}`, tokens.admin);
    expect(tooMany).toMatchObject({ statusCode: 400, status: "FAIL" });
  });

  it("counts a search's matches up to SEARCH_COUNT_LIMIT, then says more (totalCapped); under it, exactly", async () => {
    const tag = `cap${randomUUID().slice(0, 6)}`;
    // One past the limit, written in one statement (their opening balance is 0: no ledger entry).
    await sql`insert into users (username, password_hash, parent_id)
              select ${tag} || '_' || n, 'x', ${c.id} from generate_series(1, ${SEARCH_COUNT_LIMIT + 1}) as n`.execute(db);
    try {
      const capped = await get<AccountPage<UserRow>>(`/users?username=${tag}&pageSize=50`, tokens.admin);
      expect(capped.data).toMatchObject({ total: SEARCH_COUNT_LIMIT, totalCapped: true, page: 1, pageSize: 50 });
      expect(capped.data?.items).toHaveLength(50);
      // `_100` matches _100 and _1000–_1001 (the limit is 1,000): counted exactly, not capped.
      const exact = await get<AccountPage<UserRow>>(`/users?username=${tag}_100`, tokens.admin);
      expect(exact.data?.total).toBe(3);
      expect(exact.data).not.toHaveProperty("totalCapped");
      // Without a search the count is the kept one, exact however many: the whole list can be paged through.
      const everyone = Number((await sql<{ n: string }>`select count(*) as n from users`.execute(db)).rows[0]!.n);
      const unsearched = await get<AccountPage<UserRow>>(`/users?pageSize=50`, tokens.admin);
      expect(unsearched.data?.total).toBe(everyone);
      expect(unsearched.data).not.toHaveProperty("totalCapped");
    } finally {
      await db.deleteFrom("users").where("username", "like", `${tag}\_%`).execute();
    }
  });

  it("refuses a query outside its bounds", async () => {
    expect((await get("/users?pageSize=501", tokens.admin)).statusCode).toBe(400);
    expect((await get("/users?page=0", tokens.admin)).statusCode).toBe(400);
    expect((await get("/users?orderBy=password", tokens.admin)).statusCode).toBe(400);
  });

  it("reveals passwords to role 1 only, auditing every reveal", async () => {
    const before = await footprint();
    const asAdmin = await get<Page<UserRow>>(`/users?username=${uA.username}`, tokens.admin);
    expect(asAdmin.data?.items[0]?.password).toBe(uA.password);
    const audit = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", REVEAL_ACTION)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ target_kind: "user", target_ids: [String(uA.id)] });

    const asPartner = await get<Page<UserRow>>(`/users?username=${uA.username}`, tokens.a);
    const asStaff = await get<Page<UserRow>>(`/users?username=${uA.username}`, tokens.staffUsers);
    for (const reply of [asPartner, asStaff]) expect(reply.data?.items[0]).not.toHaveProperty("password");
    expect((await footprint()).audit).toBe(before.audit + 1);
  });
});

describe("GET /download-users", () => {
  it("streams every matching row as CSV", async () => {
    const response = await app.inject({
      method: "GET",
      url: `/api/admin/download-users?partner=${a.id}`,
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="users-\d{8}\.csv"$/);
    const lines = response.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe("ID,Username,Mob No,Balance,Bonus,Created Time");
    expect(lines).toContain(`${uA.id},${uA.username},,10.00,0.00,${lines.find((line) => line.startsWith(`${uA.id},`))!.split(",")[5]}`);
    expect(lines).toHaveLength(2);

    const panels = await app.inject({
      method: "GET",
      url: `/api/admin/download-users?type=partners&username=${b.username}`,
      headers: { authorization: `Bearer ${tokens.a}` },
    });
    expect(panels.body.split("\r\n").slice(0, 2)).toEqual([
      "ID,Username,Mob No,Balance,Bonus,Created Time,Role",
      expect.stringMatching(new RegExp(`^${b.id},${b.username},,0\\.00,0\\.00,[^,]+,Super Master$`)),
    ]);
  });

  it("answers a refusal with the FAIL envelope", async () => {
    const response = await app.inject({ method: "GET", url: "/api/admin/download-users" });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ status: "FAIL", msg: "Admin not found", data: null });
  });
});

describe("POST /add-user", () => {
  const newUser = (extra: Record<string, unknown> = {}) => ({
    username: `n_${randomUUID().slice(0, 10)}`,
    password: "secret-1",
    repeatPassword: "secret-1",
    mobNo: "9876543210",
    permissions: { cricket: true },
    isPartner: false,
    ...extra,
  });
  const partnerRoles = async () => db.selectFrom("partner_roles").select(["id", "level"]).orderBy("level").execute();

  it("adds a user under the partner that creates it, with the permissions it may grant", async () => {
    const body = newUser();
    const reply = await post<{ _id: string }>("/add-user", tokens.a, body);
    expect(reply).toMatchObject({ statusCode: 200, status: "SUCCESS", msg: "User added successfully", data: { _id: expect.any(String) } });
    const row = await db.selectFrom("users").selectAll().where("id", "=", BigInt(reply.data!._id)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ parent_id: a.id, mob_no: "9876543210", balance: 0n, permissions: { ...allFlags(false), cricket: true } });
    expect(await login(app, "x", "y").catch(() => "refused")).toBe("refused");
  });

  it("adds a partner of a lower tier with shares up to the creator's", async () => {
    const roles = await partnerRoles();
    const reply = await post<{ _id: string }>("/add-user", tokens.a, newUser({ isPartner: true, role: String(roles[2]!.id), share: shares(50) }));
    expect(reply.msg).toBe("User added successfully");
    const row = await db.selectFrom("admins").selectAll().where("id", "=", BigInt(reply.data!._id)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: 3, parent_id: a.id, partner_role_id: roles[2]!.id, share: shares(50) });
  });

  it("refuses every broken rule with its message, changing nothing", async () => {
    const roles = await partnerRoles();
    const partner = (extra: Record<string, unknown>) => newUser({ isPartner: true, role: String(roles[1]!.id), share: shares(10), ...extra });
    const cases: [string, unknown, number, string | RegExp][] = [
      [tokens.admin, newUser({ repeatPassword: "secret-2" }), 400, "Password and Confirm Password do not match"],
      [tokens.admin, newUser({ password: "short", repeatPassword: "short" }), 400, "password: Password must be 6 to 128 characters"],
      [tokens.admin, newUser({ username: "ab" }), 400, /^username: /],
      [tokens.admin, newUser({ username: "has space" }), 400, /^username: /],
      [tokens.admin, newUser({ mobNo: "12ab" }), 400, /^mobNo: /],
      [tokens.admin, newUser({ username: "ADMIN" }), 409, "Username already exists"],
      [tokens.admin, newUser({ username: uA.username.toUpperCase() }), 409, "Username already exists"],
      [tokens.admin, newUser({ permissions: { poker: true } }), 400, /^permissions: /],
      [tokens.a, newUser({ permissions: { casino: true } }), 403, "You cannot grant casino"],
      [tokens.admin, partner({ share: { ...shares(10), casino: -1 } }), 400, "Invalid share value"],
      [tokens.admin, partner({ share: { cricket: 10, football: 10, tennis: 10, bookmaker: 10, fancy: 10 } }), 400, "Invalid share value"],
      [tokens.admin, partner({ share: { ...shares(10), fancy: "" } }), 400, "Invalid share value"],
      [tokens.admin, partner({ share: undefined }), 400, "Invalid share value"],
      [tokens.admin, partner({ role: undefined }), 400, "role: Required"],
      [tokens.admin, partner({ role: "999999" }), 400, "Invalid role"],
      [tokens.b, partner({ role: String(roles[0]!.id), permissions: {} }), 403, "You can only create partners of a lower tier than yours"],
      [tokens.a, partner({ role: String(roles[2]!.id), permissions: {}, share: shares(51) }), 400, "Share for cricket cannot exceed yours (50)"],
    ];
    const before = await footprint();
    for (const [token, body, statusCode, msg] of cases) {
      const reply = await post("/add-user", token, body);
      expect({ body, statusCode: reply.statusCode, msg: reply.msg }).toEqual({ body, statusCode, msg: msg instanceof RegExp ? expect.stringMatching(msg) : msg });
    }
    expect(await footprint()).toEqual(before);
  });
});

describe("deposits and withdrawals", () => {
  const balanceOf = async (table: "users" | "admins", id: bigint) =>
    (await db.selectFrom(table).select("balance").where("id", "=", id).executeTakeFirstOrThrow()).balance;

  it("moves money between a partner and its user both ways", async () => {
    const partner = await createAdmin({ role: 3, balance: 5_000n });
    const user = await createUser(partner.id);
    const token = await login(app, partner.username, partner.password, freshIp());
    const deposit = await post("/user-deposit", token, { amount: 12.34, remark: "top up", user: String(user.id), isPartner: false });
    expect(deposit).toMatchObject({ statusCode: 200, msg: "Deposit added successfully", data: { balance: 12.34, actorBalance: 37.66 } });
    const withdraw = await post("/user-withdraw", token, { amount: 2.34, user: String(user.id) });
    expect(withdraw).toMatchObject({ statusCode: 200, msg: "Withdraw successfully", data: { balance: 10, actorBalance: 40 } });
    const transfer = await db.selectFrom("ledger_transfers").selectAll().where("actor_id", "=", partner.id).orderBy("id").executeTakeFirstOrThrow();
    expect(transfer).toMatchObject({ kind: "deposit", remark: "top up" });
  });

  it("lets the house fund deposits without limit, answering actorBalance unlimited", async () => {
    const user = await createUser(c.id);
    const house = await balanceOf("admins", await houseId());
    const reply = await post("/user-deposit", tokens.staffUsers, { amount: 1_000_000, user: String(user.id) });
    expect(reply.data).toEqual({ balance: 1_000_000, actorBalance: "unlimited" });
    expect(await balanceOf("admins", await houseId())).toBe(house - 100_000_000n);
  });

  it("refuses a partner a deposit beyond its balance, and a withdrawal beyond the target's, with 409", async () => {
    const partner = await createAdmin({ role: 3, balance: 1_000n });
    const user = await createUser(partner.id, 500n);
    const token = await login(app, partner.username, partner.password, freshIp());
    const before = await footprint();
    expect(await post("/user-deposit", token, { amount: 10.01, user: String(user.id) })).toMatchObject({
      statusCode: 409,
      status: "FAIL",
      msg: "Insufficient balance",
    });
    expect(await post("/user-withdraw", token, { amount: 5.01, user: String(user.id) })).toMatchObject({
      statusCode: 409,
      msg: "Insufficient balance",
    });
    expect(await footprint()).toEqual(before);
    expect(await post("/user-deposit", token, { amount: 10, user: String(user.id) })).toMatchObject({ data: { balance: 15, actorBalance: 0 } });
  });

  it("refuses a malformed amount or remark with its message, changing nothing", async () => {
    const before = await footprint();
    const user = String(uA.id);
    for (const amount of [0, -5, 1.234, "12", null, 1e9 + 1, Number.NaN]) {
      for (const path of ["/user-deposit", "/user-withdraw"]) {
        expect(await post(path, tokens.admin, { amount, user })).toMatchObject({ statusCode: 400, msg: "Invalid amount" });
      }
    }
    expect(await post("/user-deposit", tokens.admin, { amount: 1, user, remark: "x".repeat(101) })).toMatchObject({
      statusCode: 400,
      msg: "Remark must be at most 100 characters",
    });
    expect(await post("/user-deposit", tokens.admin, { amount: 1, user, requestId: "short" })).toMatchObject({ statusCode: 400 });
    expect(await footprint()).toEqual(before);
  });

  it("applies a request id once: a replay answers the original result and changes nothing", async () => {
    const user = await createUser(c.id);
    const body = { amount: 7.5, user: String(user.id), requestId: `req-${randomUUID()}` };
    const first = await post("/user-deposit", tokens.admin, body);
    const after = await footprint();
    const again = await post("/user-deposit", tokens.admin, body);
    expect({ ...again, sealed: null }).toEqual({ ...first, sealed: null });
    expect(first).toMatchObject({ msg: "Deposit added successfully", data: { balance: 7.5 } });
    expect(await footprint()).toEqual(after);
    expect(await post("/user-withdraw", tokens.admin, body)).toMatchObject({
      statusCode: 409,
      msg: "requestId was already used for another request",
    });
    // The key belongs to its actor: another admin may use the same one.
    expect(await post("/user-deposit", tokens.staffUsers, body)).toMatchObject({ statusCode: 200, data: { balance: 15 } });
  });

  it("adds exactly 50 concurrent deposits to one user", async () => {
    const partner = await createAdmin({ role: 3, balance: 1_000_000n });
    const user = await createUser(partner.id);
    const token = await login(app, partner.username, partner.password, freshIp());
    const amounts = Array.from({ length: 50 }, (_, i) => i + 1 + (i % 7) / 100);
    const replies = await Promise.all(amounts.map((amount) => post("/user-deposit", token, { amount, user: String(user.id) })));
    expect(replies.every((reply) => reply.statusCode === 200)).toBe(true);
    const total = amounts.reduce((sum, amount) => sum + BigInt(Math.round(amount * 100)), 0n);
    expect(await balanceOf("users", user.id)).toBe(total);
    expect(await balanceOf("admins", partner.id)).toBe(1_000_000n - total);
  });
});

describe("passwords, permissions and login logs", () => {
  it("changes another account's password, signing a partner out", async () => {
    const partner = await createAdmin({ role: 3, parent: a.id, partnerRoleLevel: 2 });
    const token = await login(app, partner.username, partner.password, freshIp());
    const reply = await post("/change-user-password", tokens.a, { user: String(partner.id), isPartner: true, password: "fresh-secret" });
    expect(reply).toMatchObject({ statusCode: 200, msg: "Password changed successfully" });
    expect((await get("/b2c/admin", token)).msg).toBe("Admin not found");
    await login(app, partner.username, "fresh-secret", freshIp());
    const listed = await get<Page<PartnerRow>>(`/partners?username=${partner.username}`, tokens.admin);
    expect(listed.data?.items[0]?.password).toBe("fresh-secret");
  });

  it("reads and saves permissions, refusing a flag the caller lacks", async () => {
    const user = await createUser(a.id);
    expect((await get(`/user-permissions/${user.id}`, tokens.a)).data).toEqual({ permissions: allFlags(false), bet: true, login: true });
    const save = (permissions: Record<string, boolean>) =>
      post("/change-permissions", tokens.a, { user: String(user.id), isPartner: false, permissions, bet: false, login: true });
    const before = await footprint();
    expect(await save({ casino: true })).toMatchObject({ statusCode: 403, msg: "You cannot grant casino" });
    expect(await footprint()).toEqual(before);
    expect(await save({ cricket: true })).toMatchObject({ statusCode: 200, msg: "Permissions saved successfully" });
    expect((await get(`/user-permissions/${user.id}`, tokens.a)).data).toEqual({
      permissions: { ...allFlags(false), cricket: true },
      bet: false,
      login: true,
    });
  });

  it("signs a partner out when its Login is switched off, and refuses its sign-in", async () => {
    const partner = await createAdmin({ role: 3, parent: a.id, partnerRoleLevel: 2 });
    const token = await login(app, partner.username, partner.password, freshIp());
    expect((await get(`/partner-permissions/${partner.id}`, tokens.a)).data).toMatchObject({ login: true });
    await post("/change-permissions", tokens.a, { user: String(partner.id), isPartner: true, permissions: {}, bet: true, login: false });
    expect((await get("/b2c/admin", token)).statusCode).toBe(401);
    const again = await call(app, "POST", "/login", { body: { username: partner.username, password: partner.password }, ip: freshIp() });
    expect(again).toMatchObject({ statusCode: 403, msg: "Login disabled" });
  });

  it("lists a partner's sign-ins newest first", async () => {
    const partner = await createAdmin({ role: 3, parent: a.id, partnerRoleLevel: 2 });
    await login(app, partner.username, partner.password, "10.200.0.1");
    await call(app, "POST", "/login", {
      body: { username: partner.username, password: partner.password },
      ip: "10.200.0.2",
      headers: { "user-agent": "second-agent" },
    });
    const logs = await get<{ ip: string; userAgent: string; createdAt: string }[]>(`/login-logs/${partner.id}?isPartner=true`, tokens.a);
    expect(logs.data).toEqual([
      { ip: "10.200.0.2", userAgent: "second-agent", createdAt: expect.any(String) },
      { ip: "10.200.0.1", userAgent: expect.any(String), createdAt: expect.any(String) },
    ]);
  });
});

describe("default admin", () => {
  it("lets role 1 choose the partner that receives new users", async () => {
    const [seeded] = (await get<PartnerRow[]>("/b2c/default-admin", tokens.admin)).data!;
    expect(seeded?.username).toBe(DEMO_ACCOUNTS.partner.username);

    expect(await get(`/b2c/make-default-admin/${c.id}`, tokens.a)).toMatchObject({ statusCode: 403 });
    expect(await get(`/b2c/make-default-admin/${c.id}`, tokens.staffUsers)).toMatchObject({ statusCode: 403 });
    expect(await get(`/b2c/make-default-admin/${await houseId()}`, tokens.admin)).toMatchObject({ statusCode: 404, msg: "Partner not found" });

    try {
      expect(await get(`/b2c/make-default-admin/${c.id}`, tokens.admin)).toMatchObject({ msg: "Default admin changed successfully" });
      expect((await get<PartnerRow[]>("/b2c/default-admin", tokens.staffUsers)).data).toEqual([
        expect.objectContaining({ _id: String(c.id), username: c.username }),
      ]);
      const created = await post<{ _id: string }>("/add-user", tokens.admin, {
        username: `d_${randomUUID().slice(0, 10)}`,
        password: "secret-1",
        repeatPassword: "secret-1",
        permissions: {},
        isPartner: false,
      });
      const row = await db.selectFrom("users").select("parent_id").where("id", "=", BigInt(created.data!._id)).executeTakeFirstOrThrow();
      expect(row.parent_id).toBe(c.id);
    } finally {
      await get(`/b2c/make-default-admin/${seeded!._id}`, tokens.admin);
    }
  });
});
