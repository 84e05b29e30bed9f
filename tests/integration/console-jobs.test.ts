/**
 * Jobs that survive (issue 19, ADR 0009) in the console's store: a confirmed job and its items,
 * answers as they arrive, an item claimed for sending at most once, a resume that sends only the
 * unanswered items, and the in-flight check of items sent with no answer. On embedded PGlite, and
 * on PostgreSQL in the integration-pg project; then over the
 * console's HTTP (its store in memory): a chunk posted twice reaches the API once.
 */
import { randomUUID } from "node:crypto";
import { copyFile, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BetStatus, SportsBet } from "../../protocol/wire";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { listAudit } from "../../app/lib/store/audit-log.server";
import { startConsole, type TestConsole } from "./support/console.js";
import { addJobItems, claimItems, createJob, createJobClaimingFirst, jobItems, openJobs, recordAnswers, type JobItemDraft } from "../../app/lib/store/jobs.server";
import { resolveInFlight, settledBetCheck } from "../../app/lib/jobs.server";
import { UNKNOWN_OUTCOME } from "../../app/machines/bulk.machine";
import { SETTLE_BULK_IN_FLIGHT, SETTLE_BULK_SIZE } from "../../app/lib/constants";
import { consoleStores } from "./support/console-stores";
import { openDatabase, runMigrations } from "../../db/index.js";
import type { ConsoleDatabase } from "../../app/lib/store/schema";
import { call, createAdmin, createUser, freshIp, houseId, login, placePendingBets, testDb } from "./support/platform.js";

const { open, targets } = consoleStores("console_jobs");
const MIGRATIONS = new URL("../../app/lib/store/migrations/", import.meta.url);

const bets = (n: number): JobItemDraft[] =>
  Array.from({ length: n }, (_, i) => ({
    key: `${1000 + i}`,
    label: `bet ${1000 + i}`,
    requestId: `${1000 + i}`,
    payload: { scope: { eventId: "e1", marketId: "m1" }, bet: { _id: `${1000 + i}`, eventId: "e1", marketId: "m1" }, status: 1, placed: { userId: "1", createdAt: "2026-11-26T00:00:00Z" } },
  }));

describe.each(targets)("console jobs on %s", (_name, target) => {
  it("keeps a confirmed job, every item with its request id and payload, and each answer as it arrives", async () => {
    const store = await open(await target());
    const id = await createJob(store, { operator: "admin", kind: "settle", title: "Settle market", items: bets(1200) });
    const items = await jobItems(store, id);
    expect(items).toHaveLength(1200);
    expect(items[1199]).toEqual({ ...bets(1200)[1199], sent: false, outcome: null, message: null });

    expect((await claimItems(store, id, ["1000", "1001", "1002"])).map((item) => item.key)).toEqual(["1000", "1001", "1002"]);
    await recordAnswers(store, id, [
      { key: "1000", outcome: "done", message: "" },
      { key: "1001", outcome: "refused", message: "Bet already settled" },
    ]);
    // The first answer stands.
    await recordAnswers(store, id, [{ key: "1000", outcome: "unknown", message: "late" }]);
    const [first, second, third] = await jobItems(store, id);
    expect(first).toMatchObject({ sent: true, outcome: "done" });
    expect(second).toMatchObject({ sent: true, outcome: "refused", message: "Bet already settled" });
    expect(third).toMatchObject({ sent: true, outcome: null });
    expect(await openJobs(store, "admin")).toEqual([
      expect.objectContaining({ id, operator: "admin", title: "Settle market", total: 1200, done: 1, refused: 1, unknown: 0, inFlight: 1 }),
    ]);
  });

  it("claims an item for sending once, so a resent or resumed chunk sends only what was never sent", async () => {
    const store = await open(await target());
    const id = await createJob(store, { operator: "admin", kind: "settle", title: "Settle bets", items: bets(5) });
    await claimItems(store, id, ["1000", "1001"]);
    await recordAnswers(store, id, [{ key: "1000", outcome: "done", message: "" }]);
    // A resume sends every unanswered item again: the answered one and the one in flight are left out.
    const again = await claimItems(store, id, ["1000", "1001", "1002", "1003", "1004"]);
    expect(again.map((item) => item.key)).toEqual(["1002", "1003", "1004"]);
    // Two instances claiming the same chunk at once: each item goes to one of them.
    const other = await createJob(store, { operator: "admin", kind: "settle", title: "Settle bets", items: bets(40) });
    const keys = bets(40).map((item) => item.key);
    const [a, b] = await Promise.all([claimItems(store, other, keys), claimItems(store, other, keys)]);
    expect([...a, ...b].map((item) => item.key).sort()).toEqual(keys);
  });

  it("writes a started job's first items claimed, so no chunk sends them again, and its others unclaimed after them (issue 35)", async () => {
    const store = await open(await target());
    const drafts = bets(5);
    const { id, claimed } = await createJobClaimingFirst(store, { operator: "admin", kind: "settle", title: "Settle market", items: drafts }, 3);
    expect(claimed).toEqual(drafts.slice(0, 3).map((draft) => ({ ...draft, sent: true, outcome: null, message: null })));
    expect((await openJobs(store, "admin")).map(({ id: listed, total, inFlight }) => ({ listed, total, inFlight }))).toEqual([{ listed: id, total: 3, inFlight: 3 }]);
    await addJobItems(store, id, drafts.slice(3), 3);
    expect((await jobItems(store, id)).map(({ key, sent }) => ({ key, sent }))).toEqual(drafts.map(({ key }, i) => ({ key, sent: i < 3 })));
    // A chunk asking for all five claims only the two written unclaimed.
    expect((await claimItems(store, id, drafts.map((draft) => draft.key))).map((item) => item.key)).toEqual(["1003", "1004"]);
    expect(await openJobs(store, "admin")).toEqual([expect.objectContaining({ id, total: 5, inFlight: 5 })]);
  });

  it("a claim answers each item as written, whether this process wrote its job or another did (issue 35)", async () => {
    const store = await open(await target());
    const drafts = bets(3);
    const id = await createJob(store, { operator: "admin", kind: "settle", title: "Settle market", items: drafts });
    // A fourth item written by another instance (or by hand): not among what this process wrote.
    await sql`insert into console_job_items (job_id, position, key, label, request_id, payload) values (${id}, 3, 'x', 'bet x', 'x', '{"bet":{"_id":"x"},"status":2}')`.execute(store);
    const claimed = (await claimItems(store, id, ["1001", "x", "1002"])).sort((a, b) => a.key.localeCompare(b.key));
    expect(claimed).toEqual([
      { ...drafts[1], sent: true, outcome: null, message: null },
      { ...drafts[2], sent: true, outcome: null, message: null },
      { key: "x", label: "bet x", requestId: "x", payload: { bet: { _id: "x" }, status: 2 }, sent: true, outcome: null, message: null },
    ]);
    // A job no process here wrote is read from the store whole.
    await sql`insert into console_jobs (id, operator, kind, title) values ('elsewhere', 'admin', 'settle', 'Settle market')`.execute(store);
    await sql`insert into console_job_items (job_id, position, key, label, request_id, payload) values ('elsewhere', 0, 'y', 'bet y', 'y', '{"status":1}')`.execute(store);
    expect(await claimItems(store, "elsewhere", ["y"])).toEqual([{ key: "y", label: "bet y", requestId: "y", payload: { status: 1 }, sent: true, outcome: null, message: null }]);
    expect(await claimItems(store, id, ["1001", "x"])).toEqual([]);
    // Another store holding a job of the same id (a copied store): what this process wrote to the first says nothing of it.
    const copy = await open(await target());
    await sql`insert into console_jobs (id, operator, kind, title) values (${id}, 'admin', 'settle', 'Settle market')`.execute(copy);
    await sql`insert into console_job_items (job_id, position, key, label, request_id, payload) values (${id}, 0, '1000', 'bet 1000', '1000', '{"status":3}')`.execute(copy);
    expect(await claimItems(copy, id, ["1000"])).toEqual([{ key: "1000", label: "bet 1000", requestId: "1000", payload: { status: 3 }, sent: true, outcome: null, message: null }]);
  });

  it("lists one operator's unfinished jobs, everyone's for a super admin, and no finished job", async () => {
    const store = await open(await target());
    const mine = await createJob(store, { operator: "staff", kind: "deposit", title: "Bulk deposit", items: bets(2) });
    const theirs = await createJob(store, { operator: "other", kind: "settle", title: "Settle bets", items: bets(1) });
    const finished = await createJob(store, { operator: "staff", kind: "settle", title: "Done", items: bets(1) });
    await claimItems(store, finished, ["1000"]);
    await recordAnswers(store, finished, [{ key: "1000", outcome: "done", message: "" }]);
    expect((await openJobs(store, "staff")).map((job) => job.id)).toEqual([mine]);
    const everyone = (await openJobs(store, null)).map((job) => job.id);
    expect(everyone).toEqual(expect.arrayContaining([mine, theirs]));
    expect(everyone).not.toContain(finished);
  });

  it("checks an item in flight against the API: a bet still pending is sent again, a settled one is not, an unreadable queue leaves it unknown", async () => {
    const store = await open(await target());
    const id = await createJob(store, { operator: "admin", kind: "settle", title: "Settle market", items: bets(4) });
    await claimItems(store, id, ["1000", "1001", "1002"]);
    await recordAnswers(store, id, [{ key: "1000", outcome: "done", message: "" }]);
    // 1001 and 1002 were in flight when the console stopped; only 1002 is still pending upstream,
    // and 1001 was settled as the job asked.
    const items = await resolveInFlight(store, id, settledBetCheck(pendingAs(["1002", "1003"]), settledAs({ "1001": "SUCCESS" })));
    expect(items.map(({ key, sent, outcome, message }) => ({ key, sent, outcome, message }))).toEqual([
      { key: "1000", sent: true, outcome: "done", message: "" },
      { key: "1001", sent: true, outcome: "done", message: "Found settled as won when resumed" },
      { key: "1002", sent: false, outcome: null, message: null },
      { key: "1003", sent: false, outcome: null, message: null },
    ]);
    expect((await claimItems(store, id, ["1000", "1001", "1002", "1003"])).map((item) => item.key)).toEqual(["1002", "1003"]);

    // The queue could not be read completely: nothing is known, nothing is resent.
    const unread = await resolveInFlight(store, id, settledBetCheck(async () => ({ complete: false, pending: new Map() }), settledAs({})));
    expect(unread.slice(2).map(({ outcome, message }) => ({ outcome, message }))).toEqual([
      { outcome: "unknown", message: UNKNOWN_OUTCOME },
      { outcome: "unknown", message: UNKNOWN_OUTCOME },
    ]);
  });

  it("never counts a bet settled elsewhere as the job's work: another outcome is a conflict, an unreadable one unknown (issue 29)", async () => {
    const store = await open(await target());
    const id = await createJob(store, { operator: "admin", kind: "settle", title: "Settle market", items: bets(3) });
    await claimItems(store, id, ["1000", "1001", "1002"]);
    // The job said won (status 1) for all three; two were settled elsewhere while it was down.
    const items = await resolveInFlight(store, id, settledBetCheck(pendingAs([]), settledAs({ "1000": "FAIL", "1001": "ABANDONED" })));
    expect(items.map(({ key, outcome, message }) => ({ key, outcome, message }))).toEqual([
      { key: "1000", outcome: "conflict", message: "Settled elsewhere as lost (this job: won)" },
      { key: "1001", outcome: "conflict", message: "Settled elsewhere as void (this job: won)" },
      { key: "1002", outcome: "unknown", message: `${UNKNOWN_OUTCOME} (found settled; its outcome could not be read)` },
    ]);
    expect(await openJobs(store, "admin")).not.toContainEqual(expect.objectContaining({ id }));
  });

  it("counts a job's unanswered items down once each, answers racing or not: with none left it is no longer listed (issue 35)", async () => {
    const store = await open(await target());
    const id = await createJob(store, { operator: "admin", kind: "settle", title: "Settle market", items: bets(5) });
    const unanswered = async () => (await store.selectFrom("console_jobs").select("unanswered").where("id", "=", id).executeTakeFirstOrThrow()).unanswered;
    expect(await unanswered()).toBe(5);
    // Two chunks answering overlapping items at once (on PostgreSQL, two connections): each item lowers the count once.
    await Promise.all([
      recordAnswers(store, id, ["1000", "1001", "1002"].map((key) => ({ key, outcome: "done" as const, message: "" }))),
      recordAnswers(store, id, ["1001", "1002", "1003"].map((key) => ({ key, outcome: "refused" as const, message: "late" }))),
    ]);
    expect(await unanswered()).toBe(1);
    expect(await openJobs(store, "admin")).toEqual([expect.objectContaining({ id, total: 5, done: expect.any(Number), refused: expect.any(Number) })]);
    const [listed] = await openJobs(store, "admin");
    expect(listed!.done + listed!.refused).toBe(4);
    // An answer repeated changes nothing; the last item's answer finishes the job.
    await recordAnswers(store, id, [{ key: "1003", outcome: "unknown", message: "again" }]);
    expect(await unanswered()).toBe(1);
    await recordAnswers(store, id, [{ key: "1004", outcome: "done", message: "" }]);
    expect(await unanswered()).toBe(0);
    expect(await openJobs(store, "admin")).toEqual([]);
  });

  it("keeps the count whatever writes the items: a console of the release before (a rolling deploy) or a hand in the database (migration 017)", async () => {
    const store = await open(await target());
    // As the release before writes and answers a job: it knows nothing of the count.
    await sql`insert into console_jobs (id, operator, kind, title) values ('before', 'admin', 'settle', 'Settle market')`.execute(store);
    await sql`
      insert into console_job_items (job_id, position, key, label, request_id, payload)
      values ('before', 0, 'a', 'a', 'a', 'null'), ('before', 1, 'b', 'b', 'b', 'null')`.execute(store);
    expect((await openJobs(store, "admin")).map(({ id, total }) => ({ id, total }))).toEqual([{ id: "before", total: 2 }]);
    await sql`update console_job_items set sent_at = now() where job_id = 'before'`.execute(store);
    await sql`update console_job_items set outcome = 'done', message = '', answered_at = now() where job_id = 'before' and outcome is null`.execute(store);
    expect(await openJobs(store, "admin")).toEqual([]);
    // A hand in the database: an answer taken back reopens the job, the unanswered item deleted closes it.
    await sql`update console_job_items set outcome = null where job_id = 'before' and key = 'b'`.execute(store);
    expect((await openJobs(store, "admin")).map(({ id, total, done }) => ({ id, total, done }))).toEqual([{ id: "before", total: 2, done: 1 }]);
    await sql`delete from console_job_items where job_id = 'before' and key = 'b'`.execute(store);
    expect(await openJobs(store, "admin")).toEqual([]);
  });

  it("counts the unanswered items of the jobs stored before the count existed when it is added (migration 017)", async () => {
    const db = await openDatabase<ConsoleDatabase>(await target());
    const before = await mkdtemp(join(tmpdir(), "console-migrations-"));
    try {
      // The store as it was before migration 017, with an unfinished job and a finished one.
      for (const name of (await readdir(MIGRATIONS)).filter((file) => file < "017")) await copyFile(new URL(name, MIGRATIONS), join(before, name));
      await runMigrations(db, { dir: pathToFileURL(`${before}/`), table: "console_migrations" });
      await sql`insert into console_jobs (id, operator, kind, title) values ('open', 'admin', 'settle', 'Open'), ('done', 'admin', 'settle', 'Done')`.execute(db);
      await sql`
        insert into console_job_items (job_id, position, key, label, request_id, payload, outcome)
        values ('open', 0, 'a', 'a', 'a', 'null', 'done'), ('open', 1, 'b', 'b', 'b', 'null', null), ('open', 2, 'c', 'c', 'c', 'null', null),
               ('done', 0, 'a', 'a', 'a', 'null', 'refused')`.execute(db);
      expect(await runMigrations(db, { dir: MIGRATIONS, table: "console_migrations" })).toContain("017-job-unanswered.sql");
      expect((await openJobs(db, "admin")).map(({ id, total, done, unknown }) => ({ id, total, done, unknown }))).toEqual([
        { id: "open", total: 3, done: 1, unknown: 0 },
      ]);
      const counts = await db.selectFrom("console_jobs").select(["id", "unanswered"]).orderBy("id").execute();
      expect(counts).toEqual([
        { id: "done", unanswered: 0 },
        { id: "open", unanswered: 2 },
      ]);
    } finally {
      await db.destroy();
      await rm(before, { recursive: true });
    }
  });
});

describe("a stored settlement job over the console's HTTP", () => {
  let app: TestConsole;
  let admin: string;
  /** While set, the platform answers `/settle-bets` 405, as an API whose unknown routes answer so. */
  let refuseTogether = false;
  /** `/settle-bets` calls the platform is answering now, and the most at once; while `holdMs` is set, each waits that long first. */
  const together = { now: 0, most: 0, holdMs: 0 };
  beforeAll(async () => {
    app = await startConsole({}, (platform) => {
      platform.addHook("onRequest", async (request, reply) => {
        if (!request.url.endsWith("/settle-bets")) return;
        if (refuseTogether) return reply.code(405).send({ status: "FAIL", msg: "Method Not Allowed", data: null });
        together.most = Math.max(together.most, ++together.now);
        // Held, so that every call the console has in flight arrives before any is answered.
        if (together.holdMs > 0) await new Promise((resolve) => setTimeout(resolve, together.holdMs));
      });
      platform.addHook("onResponse", async (request) => {
        if (request.url.endsWith("/settle-bets") && !refuseTogether) together.now--;
      });
    });
    admin = await signIn(DEMO_ACCOUNTS.admin);
  });
  afterAll(() => app?.close());

  async function signIn(account: { username: string; password: string }): Promise<string> {
    const response = await app.fetch("/login?redirectTo=%2F", { method: "POST", body: new URLSearchParams({ ...account, redirectTo: "/" }) });
    return response.headers.get("Set-Cookie")!.split(";")[0]!;
  }
  const post = (path: string, body?: unknown, cookie = admin) =>
    app.fetch(path, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: body === undefined ? undefined : JSON.stringify(body) });
  /**
   * A settlement job's items for these bets, as the desk confirms them: each with its scope, bet and outcome; each bet
   * with a bettor of the browser's making besides, which no check reads (the console stores the API's bet).
   */
  const settleItems = ({ eventId, marketId, ids }: { eventId: string; marketId: string; ids: string[] }, status = 1, amount = 100) =>
    ids.map((_id) => ({ key: _id, label: _id, requestId: _id, payload: { scope: { eventId, marketId }, bet: { _id, eventId, marketId, amount, userId: "forged" }, status } }));
  const settledSends = () => app.upstream.filter((line) => /settle-bets|settel-bet/.test(line));
  const jobsOf = async (operator: string) => (await app.store.selectFrom("console_jobs").select("id").where("operator", "=", operator).execute()).length;

  it("sends each bet of a chunk posted twice upstream once, answering the second from the store, and resumes with nothing left to send", async () => {
    const placed = await placePendingBets(app.platform, 2);
    const scope = { eventId: placed.eventId, marketId: placed.marketId };
    const started = await post("/resources/jobs", { kind: "settle", title: "Settle market", items: settleItems(placed) });
    const { id } = (await started.json()) as { id: string };
    const chunk = { jobId: id, scope, settlements: placed.ids.map((_id) => ({ bet: { _id, ...scope }, status: 1 })) };
    const before = settledSends().length;

    const first = (await (await post("/resources/bets/settle", chunk)).json()) as { results: Array<{ key: string; error?: string }> };
    expect(first.results).toEqual(placed.ids.map((key) => ({ key })));
    const again = (await (await post("/resources/bets/settle", chunk)).json()) as { results: Array<{ key: string; error?: string }> };
    expect(again.results).toEqual(first.results);
    // The chunk's bets went together, in one call of the platform's /settle-bets (extension).
    expect(settledSends().slice(before)).toEqual(["POST /api/admin/settle-bets"]);
    const entries = await listAudit(app.store, { call: "settleBet" }, { limit: 100, offset: 0 });
    const sent = entries.filter((entry) => placed.ids.some((bet) => JSON.stringify(entry.request).includes(`"${bet}"`)));
    expect(sent).toHaveLength(2);
    // Each under its job: the trail finds both by the job's id, and nothing else there.
    expect(sent.map((entry) => entry.jobId)).toEqual([id, id]);
    // The chunk named its bets; each went as the job stored it: the API's own bet, its stake and bettor.
    expect(sent.map((entry) => (entry.request as { bet: { amount?: number } }).bet.amount)).toEqual([100, 100]);
    for (const entry of sent) expect((entry.request as { bet: unknown }).bet).toMatchObject({ userId: expect.not.stringMatching(/forged/), runner: expect.any(String) });
    expect(await listAudit(app.store, { job: id }, { limit: 100, offset: 0 })).toEqual(sent);

    const resumed = (await (await post(`/resources/jobs/${id}/resume`)).json()) as { job: { items: Array<{ key: string; outcome: string }> } };
    expect(resumed.job.items.map(({ key, outcome }) => ({ key, outcome }))).toEqual(placed.ids.map((key) => ({ key, outcome: "done" })));
  });

  it("starts a settlement job as it stores it: its first chunks go upstream with it, each bet once, answered line by line; the rest by chunks (issue 35)", async () => {
    const placed = await placePendingBets(app.platform, 5);
    const scope = { eventId: placed.eventId, marketId: placed.marketId };
    const before = settledSends().length;
    const started = await post("/resources/jobs", { kind: "settle", title: "Settle market", items: settleItems(placed), start: { chunkSize: 2, chunks: 2 } });
    expect(started.headers.get("Content-Type")).toMatch(/^application\/x-ndjson/);
    const [first, ...chunks] = (await started.text()).trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    const id = (first as { id: string }).id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(chunks.sort((a, b) => Number(a.chunk) - Number(b.chunk))).toEqual([
      { chunk: 0, results: placed.ids.slice(0, 2).map((key) => ({ key })) },
      { chunk: 1, results: placed.ids.slice(2, 4).map((key) => ({ key })) },
    ]);
    // One call a started chunk; the fifth bet waits, stored and unsent, for the browser's chunk.
    expect(settledSends().slice(before)).toEqual(["POST /api/admin/settle-bets", "POST /api/admin/settle-bets"]);
    const stored = await jobItems(app.store, id);
    expect(stored.map(({ key, sent, outcome }) => ({ key, sent, outcome }))).toEqual(placed.ids.map((key, i) => ({ key, sent: i < 4, outcome: i < 4 ? "done" : null })));
    // Each started bet under its job in the trail, sent as the job stored it: the API's bet.
    const entries = await listAudit(app.store, { job: id }, { limit: 100, offset: 0 });
    expect(entries.map((entry) => (entry.request as { bet: { _id: string; userId: string } }).bet._id).sort()).toEqual(placed.ids.slice(0, 4).sort());
    for (const entry of entries) expect((entry.request as { bet: { userId: string } }).bet.userId).not.toBe("forged");

    // The browser's chunk of all five: the started four answered from the store, the fifth sent.
    const chunk = { jobId: id, scope, settlements: placed.ids.map((_id) => ({ bet: { _id, ...scope }, status: 1 })) };
    const rest = (await (await post("/resources/bets/settle", chunk)).json()) as { results: Array<{ key: string }> };
    expect(rest.results.map((result) => result.key).sort()).toEqual([...placed.ids].sort());
    expect(rest.results.every((result) => !("error" in result))).toBe(true);
    expect(settledSends().slice(before)).toHaveLength(3);
    expect((await listAudit(app.store, { job: id }, { limit: 100, offset: 0 })).length).toBe(5);

    // Refused or held, a job with a start is answered as any job, and nothing is sent.
    const refused = await post("/resources/jobs", { kind: "settle", title: "Settle market", items: settleItems(placed), start: { chunkSize: 2, chunks: 2 } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe(`Item 1 (${placed.ids[0]}) is not a pending bet at the API`);
    expect(settledSends().slice(before)).toHaveLength(3);
  });

  it("two chunks of one job in flight at once share its lanes: the API never has more /settle-bets calls at once than one chunk sends (issue 35)", async () => {
    // Two chunks of two calls and a bet each: six calls, more than the job's lanes.
    const placed = await placePendingBets(app.platform, 2 * (2 * SETTLE_BULK_SIZE + 1), 10);
    const scope = { eventId: placed.eventId, marketId: placed.marketId };
    const { id } = (await (await post("/resources/jobs", { kind: "settle", title: "Settle market", items: settleItems(placed, 1, 10) })).json()) as { id: string };
    const half = placed.ids.length / 2;
    const chunkOf = (ids: string[]) => ({ jobId: id, scope, settlements: ids.map((_id) => ({ bet: { _id, ...scope }, status: 1 })) });
    Object.assign(together, { most: 0, holdMs: 100 });
    const answers = await Promise.all([placed.ids.slice(0, half), placed.ids.slice(half)].map(async (ids) => (await post("/resources/bets/settle", chunkOf(ids))).json()));
    together.holdMs = 0;
    expect(answers.flatMap((answer) => (answer as { results: Array<{ key: string }> }).results)).toEqual(placed.ids.map((key) => ({ key })));
    // Each chunk alone sends three calls: together, six would be in flight without the shared lanes.
    expect(together.most).toBe(SETTLE_BULK_IN_FLIGHT);
  });

  it("runs and resumes a job only as its maker: the super admin is refused and nothing is sent (issue 29)", async () => {
    const bettingStaff = await createAdmin({ role: 2, permissions: { bets: true } });
    const maker = await signIn(bettingStaff);
    const placed = await placePendingBets(app.platform, 1);
    const scope = { eventId: placed.eventId, marketId: placed.marketId };
    const { id } = (await (await post("/resources/jobs", { kind: "settle", title: "Settle bet", items: settleItems(placed) }, maker)).json()) as { id: string };
    const before = settledSends().length;

    const resume = await post(`/resources/jobs/${id}/resume`);
    expect(resume.status).toBe(403);
    expect(await resume.text()).toBe(`Permission denied: only ${bettingStaff.username}, who confirmed this job, may run it`);
    const chunk = await post("/resources/bets/settle", { jobId: id, scope, settlements: [{ bet: { _id: placed.ids[0], ...scope }, status: 1 }] });
    expect(chunk.status).toBe(403);
    expect(settledSends().slice(before)).toEqual([]);
    const [item] = await app.store.selectFrom("console_job_items").select(["sent_at", "outcome"]).where("job_id", "=", id).execute();
    expect(item).toEqual({ sent_at: null, outcome: null });

    expect((await post(`/resources/jobs/${id}/resume`, undefined, maker)).status).toBe(200);
    expect((await post(`/resources/jobs/00000000-0000-4000-8000-000000000000/resume`)).status).toBe(404);
  });

  it("stores a settlement job only with the API's own bets and stakes: a smaller stake, a stray bet or a settled one is refused whole (issue 29)", async () => {
    const placed = await placePendingBets(app.platform, 2);
    const jobs = await jobsOf(DEMO_ACCOUNTS.admin.username);
    const cheap = await post("/resources/jobs", { kind: "settle", title: "Settle market", items: settleItems(placed, 1, 1) });
    expect(cheap.status).toBe(400);
    expect(await cheap.json()).toEqual({ ok: false, message: `Item 1 (${placed.ids[0]}) differs from the API's bet ${placed.ids[0]}: stake 1 here, 100 at the API` });

    const stray = settleItems({ ...placed, ids: [...placed.ids, "999999999"] });
    expect(await (await post("/resources/jobs", { kind: "settle", title: "Settle market", items: stray })).json()).toEqual({
      ok: false,
      message: "Item 3 (999999999) is not a pending bet at the API",
    });
    const other = await placePendingBets(app.platform, 1);
    const elsewhere = [...settleItems(placed), ...settleItems({ ...other, eventId: placed.eventId, marketId: placed.marketId })];
    expect((await (await post("/resources/jobs", { kind: "settle", title: "Settle market", items: elsewhere })).json()) as { message: string }).toEqual({
      ok: false,
      message: `Item 3 (${other.ids[0]}) is not a pending bet at the API`,
    });
    expect(await jobsOf(DEMO_ACCOUNTS.admin.username)).toBe(jobs);

    // Under a total threshold of 150, two stakes of 100 are held whatever the browser says of them.
    await app.fetch("/approvals", {
      method: "POST",
      headers: { Cookie: admin },
      body: new URLSearchParams({ intent: "thresholds", transferAbove: "", decisionAbove: "", jobItemsAbove: "", jobTotalAbove: "150", expiryHours: "24" }),
    });
    try {
      expect((await (await post("/resources/jobs", { kind: "settle", title: "Settle market", items: settleItems(placed, 1, 1) })).json()) as object).toMatchObject({ ok: false });
      expect(await (await post("/resources/jobs", { kind: "settle", title: "Settle market", items: settleItems(placed) })).json()).toEqual({
        ok: true,
        held: "Sent for approval (four-eyes): stakes above 150",
      });
    } finally {
      await app.fetch("/approvals", {
        method: "POST",
        headers: { Cookie: admin },
        body: new URLSearchParams({ intent: "thresholds", transferAbove: "", decisionAbove: "", jobItemsAbove: "", jobTotalAbove: "", expiryHours: "24" }),
      });
    }
    expect(await jobsOf(DEMO_ACCOUNTS.admin.username)).toBe(jobs);
  });

  it("stores a job only with its maker's rights: a partner's settlement, a partner's credit outside their tree and a staff member's credit without the desk are refused (issue 29)", async () => {
    const panel = await signIn(DEMO_ACCOUNTS.partner);
    const placed = await placePendingBets(app.platform, 1);
    const settle = await post("/resources/jobs", { kind: "settle", title: "Settle bet", items: settleItems(placed) }, panel);
    expect(settle.status).toBe(403);
    expect(await settle.json()).toEqual({ ok: false, message: "Permission denied: settling bets needs the bets desk" });

    const partnerId = (await (await testDb()).selectFrom("admins").select("id").where("username", "=", DEMO_ACCOUNTS.partner.username).executeTakeFirstOrThrow()).id;
    const [outside, inside] = await Promise.all([createUser(await houseId()), createUser(partnerId)]);
    const foreign = await post("/resources/jobs", { kind: "deposit", title: "Bulk deposit", items: [depositItem(inside), depositItem(outside)] }, panel);
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { message: string }).message).toMatch(new RegExp(`^Permission denied: item 2 \\(${outside.username}\\) is not in your tree`));
    const own = await post("/resources/jobs", { kind: "deposit", title: "Bulk deposit", items: [depositItem(inside)] }, panel);
    expect(await own.json()).toEqual({ ok: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    const deskless = await signIn(await createAdmin({ role: 2, permissions: { bets: true } }));
    const denied = await post("/resources/jobs", { kind: "deposit", title: "Bulk deposit", items: [depositItem(inside)] }, deskless);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ ok: false, message: `Permission denied: item 1 (${inside.username}) is on a desk you may not use` });
    expect(await jobsOf(DEMO_ACCOUNTS.partner.username)).toBe(1);
  });

  it("resumes a killed job honestly: a bet settled elsewhere with another outcome is a conflict, one settled as asked is done (issue 29)", async () => {
    const placed = await placePendingBets(app.platform, 2);
    const { id } = (await (await post("/resources/jobs", { kind: "settle", title: "Settle market", items: settleItems(placed, 1) })).json()) as { id: string };
    // Both were in flight when the console was killed; meanwhile someone settled them directly.
    await claimItems(app.store, id, placed.ids);
    const token = await login(app.platform, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp());
    for (const [_id, status] of [[placed.ids[0], 2], [placed.ids[1], 1]] as const) {
      const settled = await call(app.platform, "POST", "/settel-bet", { token, body: { bet: { _id }, status } });
      expect(settled.statusCode).toBe(200);
    }
    const resumed = (await (await post(`/resources/jobs/${id}/resume`)).json()) as { job: { items: Array<{ key: string; outcome: string; message: string }> } };
    expect(resumed.job.items.map(({ key, outcome, message }) => ({ key, outcome, message }))).toEqual([
      { key: placed.ids[0], outcome: "conflict", message: "Settled elsewhere as lost (this job: won)" },
      { key: placed.ids[1], outcome: "done", message: "Found settled as won when resumed" },
    ]);
  });

  it("sends each bet of a chunk on its own when /settle-bets is refused whole (405), recording each bet once", async () => {
    const bets = ["990101", "990102"].map((_id) => ({ _id, eventId: "e-jobs", marketId: "m-jobs" }));
    const chunk = { scope: { eventId: "e-jobs", marketId: "m-jobs" }, settlements: bets.map((bet) => ({ bet, status: 2 })) };
    const before = settledSends().length;
    refuseTogether = true;
    try {
      const answer = (await (await post("/resources/bets/settle", chunk)).json()) as { results: Array<{ key: string; error?: string }> };
      expect(answer.results).toEqual(bets.map((bet) => ({ key: bet._id, error: "Bet not found" })));
    } finally {
      refuseTogether = false;
    }
    expect(settledSends().slice(before)).toEqual(["POST /api/admin/settle-bets", "POST /api/admin/settel-bet", "POST /api/admin/settel-bet"]);
    const entries = (await listAudit(app.store, { call: "settleBet" }, { limit: 100, offset: 0 })).filter((entry) =>
      bets.some((bet) => JSON.stringify(entry.request).includes(bet._id)),
    );
    expect(entries.map(({ outcome, status, message }) => ({ outcome, status, message }))).toEqual(
      bets.map(() => ({ outcome: "refused", status: 404, message: "Bet not found" })),
    );
    // Nothing was learnt from a 405: the next chunk goes together again.
    await post("/resources/bets/settle", { ...chunk, settlements: [{ bet: { ...bets[0]!, _id: "990103" }, status: 2 }] });
    expect(settledSends().slice(before + 3)).toEqual(["POST /api/admin/settle-bets"]);
  });
});

/** A Bulk deposit's item as the desk confirms it: the exact form it posts, under its requestId. */
function depositItem(account: { id: bigint; username: string }, amount = "100") {
  const requestId = randomUUID();
  const form = { intent: "deposit", user: String(account.id), isPartner: "false", amount, remark: "", requestId };
  return { key: String(account.id), label: account.username, requestId, payload: { path: "/users", form } };
}

/** A pending queue read completely, holding these bets. */
const pendingAs = (ids: string[]) => async () => ({ complete: true, pending: new Map(ids.map((id) => [id, { _id: id } as SportsBet])) });
/** Bet histories showing these settled statuses. */
const settledAs = (statuses: Record<string, BetStatus>) => async () => new Map(Object.entries(statuses));
