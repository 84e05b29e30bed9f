/**
 * The console against an API with only the spec's calls (PLATFORM_PROFILE=spec):
 * - settling: the first chunk's `/settle-bets` (extension) answers 404, and its bets, and every
 *   later chunk's, go one `/settel-bet` each; the trail holds one settlement entry per bet, and
 *   none for the 404; a settlement job is checked against the API's own bets;
 * - a bulk file's preview: the lists' `usernames` lookup (extension) comes back ignored once, and
 *   the accounts are then resolved by the spec's list calls alone.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { listAudit } from "../../app/lib/store/audit-log.server";
import { startConsole, type TestConsole } from "./support/console.js";
import type { FilePreview } from "../../app/lib/bulk-file";
import { createUsers, houseId, placePendingBets, testDb } from "./support/platform.js";

let app: TestConsole;
let admin: string;
/** The list reads that asked the `usernames` lookup, as sent (the spec profile drops it after). */
const lookups: string[] = [];
beforeAll(async () => {
  app = await startConsole({ PLATFORM_PROFILE: "spec" }, (platform) =>
    platform.addHook("onRequest", async (request) => {
      if (request.url.includes("usernames=")) lookups.push(request.url);
    }),
  );
  const response = await app.fetch("/login?redirectTo=%2F", { method: "POST", body: new URLSearchParams({ ...DEMO_ACCOUNTS.admin, redirectTo: "/" }) });
  admin = response.headers.get("Set-Cookie")!.split(";")[0]!;
});
afterAll(() => app?.close());

const settleChunk = async (body: unknown) =>
  (await (
    await app.fetch("/resources/bets/settle", { method: "POST", headers: { "Content-Type": "application/json", Cookie: admin }, body: JSON.stringify(body) })
  ).json()) as { ok: boolean; results: Array<{ key: string; error?: string }> };

it("falls back to one /settel-bet per bet once the API shows it lacks /settle-bets, settling each once", async () => {
  const db = await testDb();
  const { eventId, marketId, ids } = await placePendingBets(app.platform, 5);
  const chunkOf = (chosen: string[]) => ({ scope: { eventId, marketId }, settlements: chosen.map((_id) => ({ bet: { _id, eventId, marketId }, status: 2 })) });

  const first = await settleChunk(chunkOf(ids.slice(0, 3)));
  expect(first).toEqual({ ok: true, results: ids.slice(0, 3).map((key) => ({ key })) });
  const second = await settleChunk(chunkOf(ids.slice(3)));
  expect(second).toEqual({ ok: true, results: ids.slice(3).map((key) => ({ key })) });
  // One try of the extension, then each bet on its own; the second chunk does not try again.
  expect(app.upstream.filter((line) => /settle-bets|settel-bet/.test(line))).toEqual([
    "POST /api/admin/settle-bets",
    ...Array(5).fill("POST /api/admin/settel-bet"),
  ]);
  const statuses = await db.selectFrom("sports_bets").select("status").where("id", "in", ids.map(BigInt)).execute();
  expect(statuses.map((row) => row.status)).toEqual(Array(5).fill("FAIL"));
  const entries = await listAudit(app.store, { call: "settleBet" }, { limit: 100, offset: 0 });
  expect(entries.map((entry) => entry.outcome)).toEqual(Array(5).fill("ok"));
});

it("stores a settlement job of two markets against an API that ignores the queue's filters, each bet checked against the API's own (issue 29)", async () => {
  const [first, second] = [await placePendingBets(app.platform, 2), await placePendingBets(app.platform, 1)];
  const itemsOf = ({ eventId, marketId, ids }: typeof first, amount = 100) =>
    ids.map((_id) => ({ key: _id, label: _id, requestId: _id, payload: { scope: { eventId, marketId }, bet: { _id, eventId, marketId, amount }, status: 1 } }));
  const store = (items: unknown[]) =>
    app.fetch("/resources/jobs", { method: "POST", headers: { "Content-Type": "application/json", Cookie: admin }, body: JSON.stringify({ kind: "settle", title: "Settle markets", items }) });
  const stored = await store([...itemsOf(first), ...itemsOf(second)]);
  expect(await stored.json()).toEqual({ ok: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  const understated = await store(itemsOf(second, 5));
  expect(understated.status).toBe(400);
  expect(await understated.json()).toEqual({ ok: false, message: `Item 1 (${second.ids[0]}) differs from the API's bet ${second.ids[0]}: stake 5 here, 100 at the API` });
});

it("checks a Settle market… job stored at once against its confirmation's own read, once; a later job or another sign-in reads the queue again (issue 35)", async () => {
  const { eventId, marketId, ids } = await placePendingBets(app.platform, 2);
  const items = ids.map((_id) => ({ key: _id, label: _id, requestId: _id, payload: { scope: { eventId, marketId }, bet: { _id, eventId, marketId, amount: 100 }, status: 1 } }));
  const store = (cookie: string) =>
    app.fetch("/resources/jobs", { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: JSON.stringify({ kind: "settle", title: "Settle market", items }) });
  const queueReads = () => app.upstream.filter((line) => line.includes("/sports-pending-bets")).length;
  const confirm = async (cookie: string) => {
    const choices = await app.fetch(`/resources/bets/settle-choices?eventId=${eventId}&marketId=${marketId}`, { headers: { Cookie: cookie } });
    expect(((await choices.json()) as { bets: Array<{ _id: string }> }).bets.map((bet) => bet._id).sort()).toEqual([...ids].sort());
  };

  await confirm(admin);
  let before = queueReads();
  expect((await (await store(admin)).json()) as unknown).toMatchObject({ ok: true });
  expect(queueReads()).toBe(before);
  // Taken by that job: the next is checked against a fresh read.
  before = queueReads();
  expect((await (await store(admin)).json()) as unknown).toMatchObject({ ok: true });
  expect(queueReads()).toBeGreaterThan(before);
  // Another sign-in's job never uses this session's read.
  const signedIn = await app.fetch("/login?redirectTo=%2F", { method: "POST", body: new URLSearchParams({ ...DEMO_ACCOUNTS.admin, redirectTo: "/" }) });
  const other = signedIn.headers.get("Set-Cookie")!.split(";")[0]!;
  await confirm(admin);
  before = queueReads();
  expect((await (await store(other)).json()) as unknown).toMatchObject({ ok: true });
  expect(queueReads()).toBeGreaterThan(before);
});

it("previews a bulk file by the spec's list calls once the API showed it ignores the `usernames` lookup, and asks it no more (issue 34)", async () => {
  const named = await createUsers(await houseId(), 3);
  const content = ["username,amount", ...named.map((user) => `${user.username},5`), "nobody-at-all,5"].join("\n");
  const preview = async () => {
    const before = lookups.length;
    const response = await app.fetch("/resources/bulk-file/preview", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: admin },
      body: JSON.stringify({ command: "deposit", desk: "users", content, encoding: "text" }),
    });
    const { preview: shown } = (await response.json()) as { preview: FilePreview };
    return { lines: shown.lines.map((line) => line.problem ?? line.account?.id), asked: lookups.length - before };
  };
  const first = await preview();
  expect(first.lines).toEqual([...named.map((user) => String(user.id)), "unknown user"]);
  // Once on each list (users, then panels for the name no user has): each answer held accounts not named.
  expect(first.asked).toBe(2);
  expect(await preview()).toEqual({ lines: first.lines, asked: 0 });
});
