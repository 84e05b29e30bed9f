/**
 * Four-eyes counts what is actually moved (issue 29), through the console over HTTP:
 * - approving a deposit is measured by what it credits in INR (the USDT rate applied, bonuses and
 *   the coupon included), and a coupon whose bonus the maker cannot read holds it;
 * - a rolling window per account and per operator over credits, debits and approvals holds the
 *   action that takes either total above its threshold, naming the earlier ones; two credits at
 *   once cannot both slip under; a refused credit does not count;
 * - a credit whose remark the API would refuse is refused by the desk's own schema (400, nothing
 *   held), above the threshold as below it.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { listPending } from "../../app/lib/store/four-eyes.server";
import { startConsole, type TestConsole } from "./support/console.js";
import { call, createAdmin, createPlayer, createUser, houseId, testDb, type TestUser } from "./support/platform.js";

let app: TestConsole;
let admin: string;
/** Staff with users and deposits (not settings: the coupons are not theirs to read). */
let maker: { cookie: string; username: string };

async function signIn(account: { username: string; password: string }): Promise<string> {
  const response = await app.fetch("/login", { method: "POST", body: new URLSearchParams({ ...account, redirectTo: "/" }) });
  expect(response.status).toBe(302);
  return response.headers.get("Set-Cookie")!.split(";")[0]!;
}

/** A route action's answer as a fetcher gets it: its status and its text (single fetch's `.data`). */
const post = async (path: string, cookie: string, form: Record<string, string>) => {
  const response = await app.fetch(`${path}.data`, { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(form) });
  return { status: response.status, text: await response.text() };
};

const THRESHOLDS_OFF = {
  intent: "thresholds",
  transferAbove: "",
  decisionAbove: "",
  jobItemsAbove: "",
  jobTotalAbove: "",
  accountCumulativeAbove: "",
  operatorCumulativeAbove: "",
  cumulativeHours: "24",
  expiryHours: "24",
};
const setThresholds = async (values: Partial<typeof THRESHOLDS_OFF>) =>
  expect((await post("/approvals", admin, { ...THRESHOLDS_OFF, ...values })).text).toContain("Four-eyes thresholds saved");

const balanceOf = async (account: { id: bigint }) =>
  (await (await testDb()).selectFrom("users").select("balance").where("id", "=", account.id).executeTakeFirstOrThrow()).balance;

/** A credit (or debit) on the users desk, as its form posts it. */
const transfer = (cookie: string, account: TestUser, amount: string, { intent = "deposit", remark = "" } = {}) => {
  const requestId = randomUUID();
  return { requestId, answer: post("/users", cookie, { intent, user: String(account.id), isPartner: "false", amount, remark, requestId }) };
};

/** An end user's pending deposit request, made through the end-user API. */
async function depositRequest(body: { amount: number; type: 0 | 2; couponCode?: string }) {
  const player = await createPlayer(app.platform, await houseId());
  const reply = await call<{ _id: string }>(app.platform, "POST", "/api/user/deposit-request", { token: player.token, body: { utr: "UTR-4E", ...body } });
  expect(reply.status).toBe("SUCCESS");
  return { player, id: reply.data!._id };
}

/** A deposit decision as the approval dialog posts it. */
const approve = (cookie: string, id: string, fields: Record<string, string>) =>
  post("/deposits", cookie, {
    intent: "decide",
    id,
    decision: "1",
    usdt: "false",
    mainInrBonus: "",
    mainPrnBonus: "",
    inrBonus: "",
    prnBonus: "",
    inr: "",
    remark: "",
    ...fields,
  });

/** The pending approval of this decision (by the request's id) or transfer (by its requestId). */
const heldOf = async (id: string) =>
  (await listPending(app.store)).find((pending) => {
    const request = pending.request as { _id?: string; requestId?: string };
    return request._id === id || request.requestId === id;
  });

beforeAll(async () => {
  app = await startConsole();
  admin = await signIn(DEMO_ACCOUNTS.admin);
  const staff = await createAdmin({ role: 2, permissions: { users: true, deposits: true } });
  maker = { cookie: await signIn(staff), username: staff.username };
});
afterAll(() => app?.close());

describe("approving a deposit is measured by what it credits", () => {
  it("a 1.5 USDT request at 90,000 INR per USDT is held above a 1,000 threshold, its summary naming 135,000", async () => {
    await setThresholds({ decisionAbove: "1000" });
    const { player, id } = await depositRequest({ amount: 1.5, type: 2 });
    const { text } = await approve(maker.cookie, id, { usdt: "true", inr: "90000" });
    expect(text).toContain("Sent for approval (four-eyes): above 1000");
    expect((await heldOf(id))?.summary).toBe(`Approve deposit request ${id} · credits 135000 · user ${player.id}`);
    expect(await balanceOf(player)).toBe(0n);
  });

  it("a 900 request with 50 % + 50 % bonuses credits 1,800 and is held; without them it is performed", async () => {
    await setThresholds({ decisionAbove: "1000" });
    const withBonuses = await depositRequest({ amount: 900, type: 0 });
    expect((await approve(maker.cookie, withBonuses.id, { mainPrnBonus: "50", prnBonus: "50" })).text).toContain(
      "Sent for approval (four-eyes): above 1000",
    );
    expect((await heldOf(withBonuses.id))?.summary).toContain("credits 1800");
    expect(await balanceOf(withBonuses.player)).toBe(0n);

    const plain = await depositRequest({ amount: 900, type: 0 });
    expect((await approve(maker.cookie, plain.id, {})).text).toContain("Deposits updated successfully");
    expect(await balanceOf(plain.player)).toBe(90_000n);
  });

  it("a request whose coupon's bonus the maker cannot read is held rather than passed; the super admin's reads it", async () => {
    await setThresholds({ decisionAbove: "1000" });
    const { player, id } = await depositRequest({ amount: 100, type: 0, couponCode: "WELCOME10" });
    expect((await approve(maker.cookie, id, {})).text).toContain("Sent for approval (four-eyes): above 1000 (its amount could not be read)");
    expect(await balanceOf(player)).toBe(0n);

    // 950 + its 10 % coupon credits 1,045: above; the super admin may read the coupons.
    const coupon = await depositRequest({ amount: 950, type: 0, couponCode: "WELCOME10" });
    expect((await approve(admin, coupon.id, {})).text).toContain("Sent for approval (four-eyes): above 1000");
    expect((await heldOf(coupon.id))?.summary).toContain("credits 1045");
  });
});

describe("a rolling window per account and per operator", () => {
  it("holds the credit that takes one account's total above it, naming the earlier ones; a refused debit does not count", async () => {
    await setThresholds({ transferAbove: "1000", accountCumulativeAbove: "2000" });
    const account = await createUser(await houseId());
    const first = transfer(maker.cookie, account, "999");
    expect((await first.answer).text).toContain("Deposit added successfully");
    // More than the balance: the API refuses it, nothing moves, and it is not counted.
    expect((await transfer(maker.cookie, account, "5000", { intent: "withdraw" }).answer).text).not.toContain("successfully");
    const second = transfer(maker.cookie, account, "999");
    expect((await second.answer).text).toContain("Deposit added successfully");

    const third = transfer(maker.cookie, account, "999");
    const { text } = await third.answer;
    expect(text).toContain(`Sent for approval (four-eyes): account user ${account.id} moved 2997 in 24 h with this, above 2000 (earlier: 999 userDeposit ${first.requestId}`);
    expect(text).toContain(`999 userDeposit ${second.requestId} (${maker.username})`);
    expect(await balanceOf(account)).toBe(199_800n);
    expect((await heldOf(third.requestId))?.reason).toMatch(/^account user \d+ moved 2997/);
  });

  it("holds what one operator moves across accounts, approvals included", async () => {
    await setThresholds({ operatorCumulativeAbove: "1500" });
    const staff = await createAdmin({ role: 2, permissions: { users: true, deposits: true } });
    const cookie = await signIn(staff);
    const { id, player } = await depositRequest({ amount: 900, type: 0 });
    expect((await approve(cookie, id, {})).text).toContain("Deposits updated successfully");
    const other = await createUser(await houseId());
    const { answer } = transfer(cookie, other, "700");
    expect((await answer).text).toContain(`operator ${staff.username} moved 1600 in 24 h with this, above 1500 (earlier: 900 updateDeposit ${id} (user ${player.id})`);
    expect(await balanceOf(other)).toBe(0n);
  });

  it("two credits at once cannot both slip under", async () => {
    await setThresholds({ accountCumulativeAbove: "1500" });
    const account = await createUser(await houseId());
    const answers = await Promise.all([transfer(maker.cookie, account, "999").answer, transfer(maker.cookie, account, "999").answer]);
    expect(answers.filter(({ text }) => text.includes("Deposit added successfully"))).toHaveLength(1);
    expect(answers.filter(({ text }) => text.includes("Sent for approval (four-eyes): account"))).toHaveLength(1);
    expect(await balanceOf(account)).toBe(99_900n);
  });
});

describe("a credit is validated before it is held", () => {
  it("a remark with a line break is refused with a 400 naming it, above the threshold as below, and nothing is held", async () => {
    await setThresholds({ transferAbove: "1000" });
    const account = await createUser(await houseId());
    for (const amount of ["5000", "10"]) {
      const { requestId, answer } = transfer(maker.cookie, account, amount, { remark: "first line\nsecond line" });
      const { status, text } = await answer;
      expect(status).toBe(400);
      expect(text).toContain("Remark must not contain a line break or other control character");
      expect(await heldOf(requestId)).toBeUndefined();
    }
    expect(await balanceOf(account)).toBe(0n);
  });
});
