/**
 * Issue 7, money and input hardening: no account mints money, bonuses stay within the site's
 * limits, the money ceiling refuses before anything commits, hostile values answer 400,
 * receipts are not left behind, and guessing one's own password is throttled.
 */
import { mkdtemp, readdir, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seal } from "../../protocol/envelope.js";
import type { Page } from "../../protocol/wire.js";
import { buildApp } from "../../platform/app.js";
import type { Db } from "../../platform/db/index.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { MAX_BALANCE_MINOR } from "../../platform/money.js";
import { apply } from "../../platform/modules/ledger/service.js";
import { referencedImages } from "../../platform/modules/requests/repository.js";
import { ORPHAN_AGE_MS, sweepOrphanImages } from "../../platform/uploads.js";
import { MAX_PAGE } from "../../platform/validation/schemas.js";
import {
  call,
  createAdmin,
  createPlayer,
  footprint,
  freshIp,
  houseId,
  ledgerBreaches,
  login,
  testApp,
  testDb,
  testEnv,
  TEST_SECRET,
} from "./support/platform.js";

let app: FastifyInstance;
let db: Db;
let admin: string;

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
const PNG_URL = `data:image/png;base64,${PNG.toString("base64")}`;
const BANK = { holder: "Asha Rao", bank: "State Bank", accNo: "1234567890", ifsc: "SBIN0001234", branch: "Pune" };

beforeAll(async () => {
  db = await testDb();
  app = await testApp();
  admin = await login(app, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp());
});
afterAll(() => app.close());

const get = <T>(path: string, token: string) => call<T>(app, "GET", path, { token });
const post = <T>(path: string, token: string, body: unknown) => call<T>(app, "POST", path, { token, body });
const signIn = (account: { username: string; password: string }) => login(app, account.username, account.password, freshIp());
const decideDeposit = (token: string, body: Record<string, unknown>) => post("/b2c/update-deposit", token, { status: 1, ...body });
const refused = (statusCode: number, msg: string) => ({ statusCode, msg });

async function askDeposit(token: string, body: Record<string, unknown>): Promise<string> {
  const reply = await post<{ _id: string }>("/api/user/deposit-request", token, { type: 0, utr: "UTR-7", ...body });
  if (!reply.data) throw new Error(`deposit request refused: ${reply.statusCode} ${reply.msg}`);
  return reply.data._id;
}

/**
 * What a partner's subtree holds: its partners' balances, their users' balances, and what those
 * users' pending withdrawals hold in the reserve (still theirs until decided).
 */
async function subtreeTotal(rootId: bigint): Promise<bigint> {
  const { rows } = await sql<{ total: string }>`
    with recursive tree(id) as (
      select ${rootId}::bigint
      union all
      select a.id from admins a join tree t on a.parent_id = t.id where a.role = 3
    )
    select (select coalesce(sum(balance), 0) from admins where id in (select id from tree))
         + (select coalesce(sum(balance), 0) from users where parent_id in (select id from tree))
         + (select coalesce(sum(w.amount), 0) from withdraw_requests w join users u on u.id = w.user_id
             where w.status = 0 and u.parent_id in (select id from tree)) as total`.execute(db);
  return BigInt(rows[0]!.total);
}

describe("a partner's own actions never raise its subtree's total", () => {
  it("refuses the issue's bonus above the limits, and a credit beyond its balance with 409, changing nothing", async () => {
    const partner = await createAdmin({ role: 3, balance: 59_900n });
    const token = await signIn(partner);
    const user = await createPlayer(app, partner.id);
    const deposit = await askDeposit(user.token, { amount: 5000 });
    const before = await footprint();

    // The probe: a 5,000 INR main bonus and a 100 % bonus on 5,000 is 200 % of it.
    expect(await decideDeposit(token, { _id: deposit, mainInrBonus: 5000, prnBonus: 100 })).toMatchObject(refused(400, "Bonus exceeds the limit of 100% of the deposit"));
    // Within the limits, but 5,000 + 2,000 + 50 % is more than the partner's 599.
    expect(await decideDeposit(token, { _id: deposit, mainInrBonus: 2000, prnBonus: 50 })).toMatchObject(refused(409, "Insufficient balance"));
    expect(await footprint()).toEqual(before);
  });

  it("pays what its decisions credit from its own balance and gets back what it pays out", async () => {
    const partner = await createAdmin({ role: 3, balance: 2_000_000n });
    const token = await signIn(partner);
    const user = await createPlayer(app, partner.id);
    const house = async () => (await db.selectFrom("admins").select("balance").where("id", "=", await houseId()).executeTakeFirstOrThrow()).balance;
    const total = await subtreeTotal(partner.id);
    const houseBefore = await house();

    const deposit = await askDeposit(user.token, { amount: 5000 });
    expect(await post("/b2c/update-deposit", token, { _id: deposit, status: 1, mainInrBonus: 2000, prnBonus: 50 })).toMatchObject({ statusCode: 200 });
    expect(await subtreeTotal(partner.id)).toBe(total);

    // The exit: the user's whole balance withdrawn to the partner.
    const me = await get<{ balance: number }>("/api/user/me", user.token);
    expect(me.data?.balance).toBe(9500);
    expect(await post("/user-withdraw", token, { user: String(user.id), amount: 9000 })).toMatchObject({ statusCode: 200 });
    expect(await subtreeTotal(partner.id)).toBe(total);

    const asked = await post<{ _id: string }>("/api/user/withdraw-request", user.token, { amount: 300, bank: BANK });
    const refused = await post<{ _id: string }>("/api/user/withdraw-request", user.token, { amount: 200, bank: BANK });
    expect(await post("/b2c/update-withdraw", token, { _id: asked.data!._id, status: 1 })).toMatchObject({ statusCode: 200 });
    expect(await post("/b2c/update-withdraw", token, { _id: refused.data!._id, status: 2 })).toMatchObject({ statusCode: 200 });
    expect(await subtreeTotal(partner.id)).toBe(total);

    expect(await house()).toBe(houseBefore);
    expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
  });
});

describe("bonus limits", () => {
  it("answer their defaults to whoever decides deposits, and only settings staff change them, audited", async () => {
    const deciding = await signIn(await createAdmin({ role: 2, permissions: { deposits: true } }));
    const settings = await signIn(await createAdmin({ role: 2, permissions: { settings: true } }));
    const users = await signIn(await createAdmin({ role: 2, permissions: { users: true } }));
    expect((await get("/b2c/bonus-limits", deciding)).data).toEqual({ maxPercent: 100, maxInr: 100000 });
    expect((await get("/b2c/bonus-limits", users)).statusCode).toBe(403);

    const before = await footprint();
    expect(await post("/b2c/update-bonus-limits", deciding, { maxPercent: 10, maxInr: 50 })).toMatchObject({ statusCode: 403 });
    expect(await post("/b2c/update-bonus-limits", settings, { maxPercent: 101, maxInr: 50 })).toMatchObject({ statusCode: 400 });
    expect(await post("/b2c/update-bonus-limits", settings, { maxPercent: 10, maxInr: 1e12 })).toMatchObject({ statusCode: 400 });
    expect(await footprint()).toEqual(before);

    try {
      expect(await post("/b2c/update-bonus-limits", settings, { maxPercent: 12.5, maxInr: 250 })).toMatchObject({
        statusCode: 200,
        data: { maxPercent: 12.5, maxInr: 250 },
      });
      const audit = await db.selectFrom("audit_log").select(["action", "target_kind", "change"]).orderBy("id", "desc").executeTakeFirstOrThrow();
      expect(audit).toEqual({
        action: "update-bonus-limits",
        target_kind: "settings",
        change: { before: { maxPercent: 100, maxInr: 100000 }, after: { maxPercent: 12.5, maxInr: 250 } },
      });

      const user = await createPlayer(app, await houseId());
      const deposit = await askDeposit(user.token, { amount: 1000 });
      const unchanged = await footprint();
      expect(await decideDeposit(admin, { _id: deposit, prnBonus: 13 })).toMatchObject(refused(400, "Bonus exceeds the limit of 12.5% of the deposit"));
      expect(await decideDeposit(admin, { _id: deposit, inrBonus: 100, mainInrBonus: 25.5 })).toMatchObject(refused(400, "Bonus exceeds the limit of 12.5% of the deposit"));
      expect(await footprint()).toEqual(unchanged);
      expect(await post("/b2c/update-deposit", admin, { _id: deposit, status: 1, prnBonus: 12.5 })).toMatchObject({ statusCode: 200 });
    } finally {
      await post("/b2c/update-bonus-limits", admin, { maxPercent: 100, maxInr: 100000 });
    }
  });

  it("refuse an INR bonus above the per-decision limit, naming it", async () => {
    const user = await createPlayer(app, await houseId());
    const deposit = await askDeposit(user.token, { amount: 500_000 });
    const before = await footprint();
    expect(await decideDeposit(admin, { _id: deposit, mainInrBonus: 60_000, inrBonus: 40_000.01 })).toMatchObject(refused(400, "Bonus exceeds the limit of 1,00,000 INR per decision"));
    expect(await footprint()).toEqual(before);
  });
});

describe("the money ceiling", () => {
  it("refuses a USDT credit above it with 400 before anything commits, and every list still answers", async () => {
    const user = await createPlayer(app, await houseId());
    const deposit = await askDeposit(user.token, { amount: 1_000_000, type: 2 });
    const before = await footprint();
    expect(await decideDeposit(admin, { _id: deposit, inr: 100_000 })).toMatchObject(refused(400, "Amount too large"));
    expect(await footprint()).toEqual(before);

    expect((await get("/api/user/me", user.token)).statusCode).toBe(200);
    expect((await get("/users", admin)).statusCode).toBe(200);
    expect((await get("/users?orderBy=balance", admin)).statusCode).toBe(200);
    expect((await get("/users?orderBy=balance&isAcc=true", admin)).statusCode).toBe(200);
    const csv = await app.inject({ method: "GET", url: "/api/admin/download-users", headers: { authorization: `Bearer ${admin}` } });
    expect(csv.statusCode).toBe(200);
  });

  it("refuses amounts above the per-amount ceiling and below a cent, naming the field", async () => {
    const user = await createPlayer(app, await houseId());
    const before = await footprint();
    for (const amount of [1e9 + 0.01, 1e14, 1e-9, 5e-324, 0.001, -5, 0]) {
      expect(await post("/user-deposit", admin, { user: String(user.id), amount })).toMatchObject({ statusCode: 400, msg: "Invalid amount" });
      expect(await post("/api/user/withdraw-request", user.token, { amount, bank: BANK })).toMatchObject({ statusCode: 400 });
    }
    expect(await footprint()).toEqual(before);
  });

  it("refuses a transfer that would take a balance beyond MAX_BALANCE, inside its transaction", async () => {
    const user = await createPlayer(app, await houseId(), 100n);
    const partner = await createAdmin({ role: 3 });
    const before = await footprint();
    const refused = db.transaction().execute(async (trx) => {
      // Only inside this transaction, which the refusal rolls back.
      await trx.updateTable("admins").set({ balance: MAX_BALANCE_MINOR }).where("id", "=", partner.id).execute();
      await apply(trx, {
        kind: "withdraw",
        actorId: partner.id,
        remark: "",
        from: { kind: "user", id: user.id },
        to: { kind: "admin", id: partner.id },
        amount: 1n,
      });
    });
    await expect(refused).rejects.toMatchObject({ statusCode: 400, message: "Amount too large" });
    expect(await footprint()).toEqual(before);
  });
});

describe("hostile values", () => {
  it("answer 400 naming the field for control characters, changing nothing", async () => {
    const partner = await createAdmin({ role: 3, balance: 100_000n });
    const user = await createPlayer(app, partner.id, 10_000n);
    const before = await footprint();
    const cases: [string, string, string, unknown, string][] = [
      ["POST", "/user-deposit", admin, { user: String(user.id), amount: 1, remark: "a\u0000b" }, "remark: Must not contain control characters"],
      ["POST", "/user-deposit", admin, { user: String(user.id), amount: 1, requestId: "req-\u0000-12345" }, "requestId: Must not contain control characters"],
      ["POST", "/api/user/deposit-request", user.token, { amount: 10, type: 0, utr: "UTR\u0000" }, "utr: Must not contain control characters"],
      ["POST", "/api/user/withdraw-request", user.token, { amount: 10, bank: { ...BANK, holder: "A\u0000" } }, "bank.holder: Must not contain control characters"],
      ["POST", "/api/user/withdraw-request", user.token, { amount: 10, bank: { ...BANK, branch: "P\u001bune" } }, "bank.branch: Must not contain control characters"],
      ["POST", "/login", "", { username: "admin\u0000", password: "admin123" }, "username: Must not contain control characters"],
      ["POST", "/api/user/login", "", { username: user.username, password: "x\u0000" }, "password: Must not contain control characters"],
    ];
    for (const [method, path, token, body, msg] of cases) {
      expect(await call(app, method as "POST", path, { token: token || undefined, body, ip: freshIp() }), path).toMatchObject({ statusCode: 400, msg });
    }
    for (const path of ["/users?username=a%00b", "/b2c/deposits/0?search=%00", "/b2c/withdraws/0?search=x%01"]) {
      expect(await get(path, admin), path).toMatchObject({ statusCode: 400, msg: expect.stringMatching(/^(username|search): Must not contain control characters$/) });
    }
    expect(await footprint()).toEqual(before);
  });

  it("clamps a page beyond any list and refuses one that is not a number", async () => {
    for (const path of ["/users?page=1e300", "/partners?page=1e300", "/b2c/deposits/0?page=1e300"]) {
      expect(await get<Page<unknown>>(path, admin), path).toMatchObject({ statusCode: 200, data: { items: [], page: MAX_PAGE } });
    }
    expect(await get("/users?page=abc", admin)).toMatchObject({ statusCode: 400, msg: expect.stringMatching(/^page: /) });
    expect(await get("/users?page=Infinity", admin)).toMatchObject({ statusCode: 400, msg: expect.stringMatching(/^page: /) });
  });
});

describe("receipt images", () => {
  it("are stored only for a request that is otherwise valid", async () => {
    const uploadsDir = await mkdtemp(join(tmpdir(), "betdesk-receipts-"));
    const own = buildApp({ db, env: testEnv(), uploadsDir });
    try {
      const user = await createPlayer(own, await houseId());
      const refused = await call(own, "POST", "/api/user/deposit-request", { token: user.token, body: { amount: 10, type: 0, utr: "U\u0000", image: PNG_URL } });
      expect(refused.statusCode).toBe(400);
      expect(await readdir(uploadsDir)).toEqual([]);
      const stored = await call(own, "POST", "/api/user/deposit-request", { token: user.token, body: { amount: 10, type: 0, utr: "U-1", image: PNG_URL } });
      expect(stored.statusCode).toBe(200);
      expect(await readdir(uploadsDir)).toHaveLength(1);
    } finally {
      await own.close();
    }
  });

  it("left behind for more than a day are swept at start; those of a request, and younger ones, stay", async () => {
    const uploadsDir = await mkdtemp(join(tmpdir(), "betdesk-sweep-"));
    const own = buildApp({ db, env: testEnv(), uploadsDir });
    try {
      const user = await createPlayer(own, await houseId());
      await call(own, "POST", "/api/user/deposit-request", { token: user.token, body: { amount: 10, type: 0, utr: "U-2", image: PNG_URL } });
      const [carried] = await readdir(uploadsDir);
      const orphan = `${"a".repeat(32)}.png`;
      const young = `${"b".repeat(32)}.png`;
      const notOurs = "notes.txt";
      for (const name of [orphan, young, notOurs]) await writeFile(join(uploadsDir, name), PNG);
      const old = (Date.now() - ORPHAN_AGE_MS - 60_000) / 1000;
      for (const name of [carried!, orphan, notOurs]) await utimes(join(uploadsDir, name), old, old);

      expect(await sweepOrphanImages(uploadsDir, (names) => referencedImages(db, names))).toEqual([orphan]);
      expect((await readdir(uploadsDir)).sort()).toEqual([carried, young, notOurs].sort());
    } finally {
      await own.close();
    }
  });
});

describe("POST /change-password", () => {
  it("throttles wrong current passwords like sign-in: 429 with Retry-After, even for the right one", async () => {
    const account = await createAdmin({ role: 2 });
    const token = await signIn(account);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(await post("/change-password", token, { curPassword: `wrong-${attempt}`, password: "new-secret-1" })).toMatchObject({ statusCode: 400 });
    }
    const response = await app.inject({
      method: "POST",
      url: "/api/admin/change-password",
      headers: { authorization: `Bearer ${token}` },
      payload: { payload: seal({ curPassword: account.password, password: "new-secret-1" }, TEST_SECRET) },
    });
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
    expect(response.json().msg).toMatch(/^Too many failed current password attempts\. Wait \d+ minutes? and try again\.$/);
  });
});
