import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DepositRow, Page, TransactionRow, WithdrawRow } from "../../protocol/wire.js";
import type { Db } from "../../platform/db/index.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
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
  type TestAdmin,
} from "./support/platform.js";

let app: FastifyInstance;
let db: Db;
// The tree: house ─ A ─ B ; house ─ C. Staff with one flag each, and with none.
let a: TestAdmin, b: TestAdmin, c: TestAdmin;
let tokens: Record<"admin" | "a" | "b" | "c" | "staffDeposits" | "staffWithdraws" | "staffUsers", string>;

// The smallest PNG: a 1×1 transparent pixel.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
const dataUrl = (bytes: Buffer, mime = "image/png") => `data:${mime};base64,${bytes.toString("base64")}`;
const BANK = { holder: "Asha Rao", bank: "State Bank", accNo: "1234567890", ifsc: "sbin0001234", branch: "Pune" };

beforeAll(async () => {
  db = await testDb();
  app = await testApp();
  // A partner's decisions are paid from its own balance (issue 7).
  a = await createAdmin({ role: 3, balance: 10_000_000n });
  b = await createAdmin({ role: 3, parent: a.id, partnerRoleLevel: 2 });
  c = await createAdmin({ role: 3 });
  const signIn = (account: { username: string; password: string }) => login(app, account.username, account.password, freshIp());
  tokens = {
    admin: await signIn(DEMO_ACCOUNTS.admin),
    a: await signIn(a),
    b: await signIn(b),
    c: await signIn(c),
    staffDeposits: await signIn(await createAdmin({ role: 2, permissions: { deposits: true } })),
    staffWithdraws: await signIn(await createAdmin({ role: 2, permissions: { withdraws: true } })),
    staffUsers: await signIn(await createAdmin({ role: 2, permissions: { users: true } })),
  };
});
afterAll(() => app.close());

const get = <T>(path: string, token: string) => call<T>(app, "GET", path, { token });
const post = <T>(path: string, token: string, body: unknown) => call<T>(app, "POST", path, { token, body });

const player = (parent: bigint, balance = 0n) => createPlayer(app, parent, balance);

async function askDeposit(user: { token: string }, body: Record<string, unknown>): Promise<string> {
  const reply = await post<{ _id: string }>("/api/user/deposit-request", user.token, { type: 0, utr: "UTR-1", ...body });
  if (reply.status !== "SUCCESS") throw new Error(`deposit request refused: ${reply.statusCode} ${reply.msg}`);
  return reply.data!._id;
}

async function askWithdraw(user: { token: string }, amount: number): Promise<string> {
  const reply = await post<{ _id: string }>("/api/user/withdraw-request", user.token, { amount, bank: BANK });
  if (reply.status !== "SUCCESS") throw new Error(`withdraw request refused: ${reply.statusCode} ${reply.msg}`);
  return reply.data!._id;
}

const balanceOf = async (id: bigint) =>
  (await db.selectFrom("users").select("balance").where("id", "=", id).executeTakeFirstOrThrow()).balance;
const houseBalance = async () =>
  (await db.selectFrom("admins").select("balance").where("id", "=", await houseId()).executeTakeFirstOrThrow()).balance;
const reserveBalance = async () =>
  (await db.selectFrom("system_accounts").select("balance").where("name", "=", "withdrawal-reserve").executeTakeFirstOrThrow()).balance;

async function depositRow(id: string, status: number, token = tokens.admin): Promise<DepositRow | undefined> {
  const page = await get<Page<DepositRow>>(`/b2c/deposits/${status}?pageSize=500`, token);
  return page.data?.items.find((row) => row._id === id);
}

describe("deposit requests", () => {
  it("are listed to the desk with the wire shape, searchable by username or UTR, their receipt served", async () => {
    const user = await player(a.id);
    const id = await askDeposit(user, { amount: 1500.5, type: 1, utr: "AxIs-98765", couponCode: "welcome10", image: dataUrl(PNG) });

    const row = await depositRow(id, 0);
    expect(row).toEqual({
      _id: id,
      user: String(user.id),
      username: user.username,
      amount: 1500.5,
      bonus: 0,
      totalBonus: 0,
      couponCode: "WELCOME10",
      type: 1,
      utr: "AxIs-98765",
      image: expect.stringMatching(/^\/uploads\/[0-9a-f]{32}\.png$/),
      status: 0,
      createdAt: expect.stringMatching(/Z$/),
    });
    for (const search of ["axis-9876", user.username.toUpperCase()]) {
      const found = await get<Page<DepositRow>>(`/b2c/deposits/0?search=${encodeURIComponent(search)}`, tokens.admin);
      expect(found.data?.items.map((item) => item._id)).toEqual([id]);
    }

    const image = await app.inject({ method: "GET", url: `/api/admin${row!.image}`, headers: { authorization: `Bearer ${tokens.a}` } });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.rawPayload.equals(PNG)).toBe(true);
    // Only to admins who may see the deposit.
    const refused = await app.inject({ method: "GET", url: `/api/admin${row!.image}`, headers: { authorization: `Bearer ${tokens.c}` } });
    expect(refused.statusCode).toBe(403);
    expect((await app.inject({ method: "GET", url: `/api/admin${row!.image}` })).statusCode).toBe(401);
  });

  it("decides 20 different requests at once, each once (on PostgreSQL: no deadlock over the house's row)", async () => {
    const users = await Promise.all(Array.from({ length: 20 }, () => player(a.id)));
    const ids = await Promise.all(users.map((user) => askDeposit(user, { amount: 100 })));
    const replies = await Promise.all(ids.map((id, i) => post("/b2c/update-deposit", i % 2 ? tokens.admin : tokens.staffDeposits, { _id: id, status: 1 })));
    expect(replies.map((reply) => `${reply.statusCode} ${reply.msg}`)).toEqual(Array(20).fill("200 Deposits updated successfully"));
    expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
  });

  it("sorts newest first by default, and by amount when asked", async () => {
    const user = await player(c.id);
    const first = await askDeposit(user, { amount: 30 });
    const second = await askDeposit(user, { amount: 10 });
    const third = await askDeposit(user, { amount: 20 });
    const list = async (query: string) =>
      (await get<Page<DepositRow>>(`/b2c/deposits/0?search=${user.username}${query}`, tokens.c)).data!.items.map((row) => row._id);
    expect(await list("")).toEqual([third, second, first]);
    expect(await list("&orderBy=amount&isAcc=true")).toEqual([second, third, first]);
    expect((await get<Page<DepositRow>>(`/b2c/deposits/0?search=${user.username}&pageSize=2&page=2`, tokens.c)).data).toMatchObject({
      items: [{ _id: first }],
      total: 3,
      page: 2,
      pageSize: 2,
    });
  });

  it("are approved exactly once under 20 concurrent approvals", async () => {
    const user = await player(a.id);
    const id = await askDeposit(user, { amount: 250 });
    const before = await balanceOf(user.id);

    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post("/b2c/update-deposit", i % 2 ? tokens.admin : tokens.staffDeposits, { _id: id, status: 1, inrBonus: 10 }),
      ),
    );
    const outcomes = replies.map((reply) => `${reply.statusCode} ${reply.msg}`).sort();
    expect(outcomes).toEqual([...Array(19).fill("409 already processed"), "200 Deposits updated successfully"].sort());
    expect(await balanceOf(user.id)).toBe(before + 26_000n);
    expect(await depositRow(id, 1)).toMatchObject({ status: 1, bonus: 10, totalBonus: 10 });
    // A later fail changes nothing either.
    expect(await post("/b2c/update-deposit", tokens.admin, { _id: id, status: 2 })).toMatchObject({ statusCode: 409, msg: "already processed" });
    expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
  });

  type Case = { name: string; request: Record<string, unknown>; decision: Record<string, unknown>; credited: bigint; bonus: number; totalBonus: number };
  const cases: Case[] = [
    { name: "no bonus", request: { amount: 1000 }, decision: {}, credited: 100_000n, bonus: 0, totalBonus: 0 },
    {
      name: "INR bonuses",
      request: { amount: 1000 },
      decision: { mainInrBonus: 50, inrBonus: 25.5 },
      credited: 107_550n,
      bonus: 25.5,
      totalBonus: 75.5,
    },
    {
      name: "percentage bonuses",
      request: { amount: 1000 },
      decision: { mainPrnBonus: 10, prnBonus: 2.5 },
      credited: 112_500n,
      bonus: 25,
      totalBonus: 125,
    },
    {
      name: "one INR and one percentage, zeros ignored",
      request: { amount: 999.99 },
      decision: { mainInrBonus: 0, mainPrnBonus: 1, inrBonus: 5, prnBonus: 0 },
      credited: 99_999n + 1_000n + 500n,
      bonus: 5,
      totalBonus: 15,
    },
    {
      name: "a coupon on top",
      request: { amount: 1000, couponCode: "BOOST5" },
      decision: { prnBonus: 1 },
      credited: 100_000n + 1_000n + 5_000n,
      bonus: 10,
      totalBonus: 60,
    },
    {
      name: "an unknown coupon",
      request: { amount: 1000, couponCode: "NOPE" },
      decision: {},
      credited: 100_000n,
      bonus: 0,
      totalBonus: 0,
    },
    {
      name: "USDT at the entered rate, bonuses on the INR amount",
      request: { amount: 10, type: 2 },
      decision: { inr: 83.25, mainPrnBonus: 10, inrBonus: 1 },
      credited: 83_250n + 8_325n + 100n,
      bonus: 1,
      totalBonus: 84.25,
    },
  ];
  for (const testCase of cases) {
    it(`credit ${testCase.name}, each as its own ledger transfer`, async () => {
      const user = await player(a.id);
      const id = await askDeposit(user, testCase.request);
      const before = await balanceOf(user.id);
      const reply = await post("/b2c/update-deposit", tokens.admin, { _id: id, status: 1, ...testCase.decision });
      expect(reply).toMatchObject({ statusCode: 200, status: "SUCCESS", msg: "Deposits updated successfully" });
      expect((await balanceOf(user.id)) - before).toBe(testCase.credited);
      expect(await depositRow(id, 1)).toMatchObject({ bonus: testCase.bonus, totalBonus: testCase.totalBonus });
      const transfers = await db
        .selectFrom("ledger_transfers")
        .select("kind")
        .where("remark", "=", `deposit request ${id}`)
        .orderBy("id")
        .execute();
      expect(transfers.length).toBeGreaterThanOrEqual(1);
      expect(transfers[0]!.kind).toBe("request-deposit");
      expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
    });
  }

  it("refuse a USDT success without the rate, and both of a bonus pair, changing nothing", async () => {
    const user = await player(a.id);
    const usdt = await askDeposit(user, { amount: 10, type: 2 });
    const upi = await askDeposit(user, { amount: 10 });
    const before = await footprint();
    expect(await post("/b2c/update-deposit", tokens.admin, { _id: usdt, status: 1 })).toMatchObject({
      statusCode: 400,
      msg: "inr: The value of 1 USDT is required to approve a USDT deposit",
    });
    expect(await post("/b2c/update-deposit", tokens.admin, { _id: upi, status: 1, inrBonus: 5, prnBonus: 5 })).toMatchObject({
      statusCode: 400,
      msg: "Give either inrBonus or prnBonus, not both",
    });
    expect(await post("/b2c/update-deposit", tokens.admin, { _id: upi, status: 1, mainInrBonus: 5, mainPrnBonus: 5 })).toMatchObject({
      statusCode: 400,
      msg: "Give either mainInrBonus or mainPrnBonus, not both",
    });
    expect(await footprint()).toEqual(before);
    // A fail needs no rate and credits nothing.
    expect(await post("/b2c/update-deposit", tokens.admin, { _id: usdt, status: 2 })).toMatchObject({ statusCode: 200 });
    expect(await balanceOf(user.id)).toBe(0n);
    expect(await depositRow(usdt, 2)).toMatchObject({ status: 2, bonus: 0, totalBonus: 0 });
  });
});

describe("withdrawal requests", () => {
  it("reserve the amount at once, return it on fail and pay it to the house on success, keeping the ledger", async () => {
    const user = await player(a.id, 100_000n);
    const reserve = await reserveBalance();

    const failed = await askWithdraw(user, 300);
    const paid = await askWithdraw(user, 450.25);
    expect(await balanceOf(user.id)).toBe(100_000n - 30_000n - 45_025n);
    expect((await reserveBalance()) - reserve).toBe(75_025n);
    // What is reserved cannot be asked for again.
    expect(await post("/api/user/withdraw-request", user.token, { amount: 300, bank: BANK })).toMatchObject({
      statusCode: 409,
      msg: "Insufficient balance",
    });

    const rows = await get<Page<WithdrawRow>>(`/b2c/withdraws/0?search=${user.username}`, tokens.staffWithdraws);
    expect(rows.data?.items).toEqual([
      {
        _id: paid,
        user: String(user.id),
        username: user.username,
        amount: 450.25,
        totalBonus: 0,
        bank: { ...BANK, ifsc: "SBIN0001234" },
        remark: null,
        status: 0,
        createdAt: expect.any(String),
      },
      expect.objectContaining({ _id: failed, amount: 300 }),
    ]);

    const house = await houseBalance();
    expect(await post("/b2c/update-withdraw", tokens.staffWithdraws, { _id: failed, status: 2, remark: "  Name mismatch " })).toMatchObject({
      statusCode: 200,
      msg: "Withdraws updated successfully",
    });
    expect(await balanceOf(user.id)).toBe(100_000n - 45_025n);
    expect(await post("/b2c/update-withdraw", tokens.staffWithdraws, { _id: paid, status: 1 })).toMatchObject({ statusCode: 200 });
    expect(await balanceOf(user.id)).toBe(100_000n - 45_025n);
    expect((await houseBalance()) - house).toBe(45_025n);
    expect(await reserveBalance()).toBe(reserve);

    const failedRows = await get<Page<WithdrawRow>>(`/b2c/withdraws/2?search=${user.username}`, tokens.admin);
    expect(failedRows.data?.items).toMatchObject([{ _id: failed, remark: "Name mismatch", status: 2 }]);
    expect(await post("/b2c/update-withdraw", tokens.admin, { _id: paid, status: 2 })).toMatchObject({ statusCode: 409, msg: "already processed" });
    expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
  });

  it("are decided exactly once under 20 concurrent decisions", async () => {
    const user = await player(c.id, 10_000n);
    const id = await askWithdraw(user, 100);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post("/b2c/update-withdraw", tokens.admin, { _id: id, status: i % 2 ? 1 : 2 })),
    );
    expect(replies.filter((reply) => reply.statusCode === 200)).toHaveLength(1);
    expect(replies.filter((reply) => reply.msg === "already processed")).toHaveLength(19);
    expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
  });
});

describe("permissions", () => {
  it("need the matching staff flag, and confine partners to their subtree, changing nothing", async () => {
    const underB = await player(b.id, 10_000n);
    const deposit = await askDeposit(underB, { amount: 5 });
    const withdraw = await askWithdraw(underB, 5);
    const before = await footprint();
    const refusals = [
      await get("/b2c/deposits/0", tokens.staffWithdraws),
      await get("/b2c/withdraws/0", tokens.staffDeposits),
      await get("/b2c/deposits/0", tokens.staffUsers),
      await post("/b2c/update-deposit", tokens.staffWithdraws, { _id: deposit, status: 1 }),
      await post("/b2c/update-withdraw", tokens.staffDeposits, { _id: withdraw, status: 1 }),
      await post("/b2c/update-deposit", tokens.c, { _id: deposit, status: 1 }),
      await post("/b2c/update-withdraw", tokens.c, { _id: withdraw, status: 2 }),
      await get(`/transaction?user=${underB.id}&type=deposits`, tokens.c),
      await get(`/transaction?user=${underB.id}&type=withdraws`, tokens.staffDeposits),
      await get(`/transaction?user=${a.id}&role=partner&type=deposits`, tokens.b),
    ];
    expect(refusals.map((reply) => `${reply.statusCode} ${reply.msg}`)).toEqual(Array(refusals.length).fill("403 Permission denied"));
    expect(await footprint()).toEqual(before);

    // Outside partners do not even see them; partners above do.
    expect(await depositRow(deposit, 0, tokens.c)).toBeUndefined();
    expect(await depositRow(deposit, 0, tokens.a)).toBeDefined();
    expect(await post("/b2c/update-deposit", tokens.a, { _id: deposit, status: 1 })).toMatchObject({ statusCode: 200 });
    expect(await post("/b2c/update-withdraw", tokens.b, { _id: withdraw, status: 2 })).toMatchObject({ statusCode: 200 });
    expect(await post("/b2c/update-deposit", tokens.admin, { _id: "999999999", status: 1 })).toMatchObject({
      statusCode: 404,
      msg: "Deposit not found",
    });
  });
});

describe("malformed requests", () => {
  it("are refused with nothing changed", async () => {
    const user = await player(a.id, 10_000n);
    const pending = await askDeposit(user, { amount: 5 });
    const before = await footprint();
    const deposit = (body: Record<string, unknown>) =>
      post("/api/user/deposit-request", user.token, { amount: 10, type: 0, utr: "U1", ...body });
    const refusals = [
      [await deposit({ amount: 0 }), "400 Invalid amount"],
      [await deposit({ amount: 1.234 }), "400 Invalid amount"],
      [await deposit({ amount: "10" }), "400 Invalid amount"],
      [await deposit({ type: 3 }), "400 type: Invalid input"],
      [await deposit({ utr: " " }), "400 utr: Required"],
      [await deposit({ couponCode: "no spaces" }), "400 couponCode: Invalid coupon code"],
      [await deposit({ image: "data:text/plain;base64,aGVsbG8=" }), "400 Image must be a PNG, JPEG, WebP or GIF data URL"],
      [await deposit({ image: dataUrl(Buffer.from("not a png at all"), "image/png") }), "400 Image must be a PNG, JPEG, WebP or GIF data URL"],
      [await deposit({ image: dataUrl(Buffer.concat([PNG, Buffer.alloc(1024 * 1024)])) }), "413 Image must be at most 1 MB"],
      [await post("/api/user/withdraw-request", user.token, { amount: 5, bank: { ...BANK, ifsc: "12" } }), "400 bank.ifsc: Invalid IFSC"],
      [await post("/api/user/withdraw-request", user.token, { amount: 5 }), "400 bank: Required"],
      [await post("/b2c/update-deposit", tokens.admin, { _id: pending, status: 0 }), "400 status: Invalid input"],
      [await post("/b2c/update-deposit", tokens.admin, { _id: "abc", status: 1 }), "400 _id: Invalid id"],
      [await post("/b2c/update-deposit", tokens.admin, { _id: pending, status: 1, prnBonus: 101 }), "400 A bonus percentage must be 0 to 100 with at most 2 decimals"],
      [await post("/b2c/update-deposit", tokens.admin, { _id: pending, status: 1, inrBonus: -1 }), "400 An INR bonus must be 0 or more with at most 2 decimals"],
      [await post("/b2c/update-withdraw", tokens.admin, { _id: pending, status: 2, remark: "x".repeat(101) }), "400 Remark must be at most 100 characters"],
      [await get("/b2c/deposits/3", tokens.admin), "400 status: Invalid input"],
      [await get("/b2c/deposits/0?pageSize=501", tokens.admin), "400 pageSize: Number must be less than or equal to 500"],
      [await get("/b2c/withdraws/0?orderBy=username", tokens.admin), expect.stringMatching(/^400 orderBy: /)],
    ] as const;
    expect(refusals.map(([reply]) => `${reply.statusCode} ${reply.msg}`)).toEqual(refusals.map(([, expected]) => expected));
    // Too large for the envelope at all.
    const huge = await call(app, "POST", "/api/user/withdraw-request", { token: user.token, rawBody: { payload: "A".repeat(2 * 1024 * 1024) } });
    expect(huge).toMatchObject({ statusCode: 413, msg: "Request body is too large" });
    expect(await footprint()).toEqual(before);
  });

  it("are refused to end users without a live session", async () => {
    expect(await post("/api/user/deposit-request", "nope", { amount: 10, type: 0, utr: "U" })).toMatchObject({
      statusCode: 401,
      msg: "User not found",
    });
  });
});

describe("transaction history", () => {
  it("lists a user's deposits (with type) or withdrawals, newest first, and a partner's whole subtree", async () => {
    const user = await player(b.id, 10_000n);
    const first = await askDeposit(user, { amount: 11, type: 2 });
    const second = await askDeposit(user, { amount: 12 });
    const withdraw = await askWithdraw(user, 13);
    await post("/b2c/update-deposit", tokens.admin, { _id: first, status: 2 });

    const deposits = await get<Page<TransactionRow>>(`/transaction?user=${user.id}&role=user&username=${user.username}&type=deposits`, tokens.a);
    expect(deposits.data).toEqual({
      items: [
        { _id: second, amount: 12, type: 0, status: 0, createdAt: expect.any(String) },
        { _id: first, amount: 11, type: 2, status: 2, createdAt: expect.any(String) },
      ],
      total: 2,
      page: 1,
      pageSize: 50,
    });
    const withdraws = await get<Page<TransactionRow>>(`/transaction?user=${user.id}&type=withdraws`, tokens.staffWithdraws);
    expect(withdraws.data?.items).toEqual([{ _id: withdraw, amount: 13, status: 0, createdAt: expect.any(String) }]);

    const subtree = await get<Page<TransactionRow>>(`/transaction?user=${b.id}&role=partner&type=deposits&pageSize=500`, tokens.a);
    expect(subtree.data?.items.map((row) => row._id)).toEqual(expect.arrayContaining([first, second]));
  });
});

