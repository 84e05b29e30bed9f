/**
 * Jobs that survive (issue 19, ADR 0009) in the console's store: a confirmed job and its items,
 * answers as they arrive, an item claimed for sending at most once, a resume that sends only the
 * unanswered items, and the in-flight check of items sent with no answer. On embedded PGlite, and
 * on PostgreSQL in the integration-pg project (or whenever TEST_DATABASE_URL is set); then over the
 * console's HTTP (its store in memory): a chunk posted twice reaches the API once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { listAudit } from "../../app/lib/store/audit-log.server";
import { startConsole, type TestConsole } from "./support/console.js";
import { claimItems, createJob, jobItems, openJobs, recordAnswers, type JobItemDraft } from "../../app/lib/store/jobs.server";
import { resolveInFlight, settledBetCheck } from "../../app/lib/jobs.server";
import { UNKNOWN_OUTCOME } from "../../app/machines/bulk.machine";
import { consoleStores } from "./support/console-stores";





const { open, targets } = consoleStores("console_jobs");

const bets = (n: number): JobItemDraft[] =>
  Array.from({ length: n }, (_, i) => ({
    key: `${1000 + i}`,
    label: `bet ${1000 + i}`,
    requestId: `${1000 + i}`,
    payload: { scope: { eventId: "e1", marketId: "m1" }, settlement: { bet: { _id: `${1000 + i}`, eventId: "e1", marketId: "m1" }, status: 1 } },
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
    // 1001 and 1002 were in flight when the console stopped; only 1002 is still pending upstream.
    const items = await resolveInFlight(store, id, settledBetCheck(async () => ({ complete: true, pending: new Set(["1002", "1003"]) })));
    expect(items.map(({ key, sent, outcome }) => ({ key, sent, outcome }))).toEqual([
      { key: "1000", sent: true, outcome: "done" },
      { key: "1001", sent: true, outcome: "done" },
      { key: "1002", sent: false, outcome: null },
      { key: "1003", sent: false, outcome: null },
    ]);
    expect((await claimItems(store, id, ["1000", "1001", "1002", "1003"])).map((item) => item.key)).toEqual(["1002", "1003"]);

    // The queue could not be read completely: nothing is known, nothing is resent.
    const unread = await resolveInFlight(store, id, settledBetCheck(async () => ({ complete: false, pending: new Set(["1002"]) })));
    expect(unread.slice(2).map(({ outcome, message }) => ({ outcome, message }))).toEqual([
      { outcome: "unknown", message: UNKNOWN_OUTCOME },
      { outcome: "unknown", message: UNKNOWN_OUTCOME },
    ]);
  });
});

describe("a stored settlement job over the console's HTTP", () => {
  let app: TestConsole;
  let admin: string;
  /** While set, the platform answers `/settle-bets` 405, as an API whose unknown routes answer so. */
  let refuseTogether = false;
  beforeAll(async () => {
    app = await startConsole({}, (platform) =>
      platform.addHook("onRequest", async (request, reply) => {
        if (refuseTogether && request.url.endsWith("/settle-bets")) await reply.code(405).send({ status: "FAIL", msg: "Method Not Allowed", data: null });
      }),
    );
    const response = await app.fetch("/login?redirectTo=%2F", { method: "POST", body: new URLSearchParams({ ...DEMO_ACCOUNTS.admin, redirectTo: "/" }) });
    admin = response.headers.get("Set-Cookie")!.split(";")[0]!;
  });
  afterAll(() => app?.close());

  const post = (path: string, body?: unknown) =>
    app.fetch(path, { method: "POST", headers: { "Content-Type": "application/json", Cookie: admin }, body: body === undefined ? undefined : JSON.stringify(body) });

  it("sends each bet of a chunk posted twice upstream once, answering the second from the store, and resumes with nothing left to send", async () => {
    const bets = ["990001", "990002"].map((_id) => ({ _id, eventId: "e-jobs", marketId: "m-jobs" }));
    const scope = { eventId: "e-jobs", marketId: "m-jobs" };
    const items = bets.map((bet) => ({ key: bet._id, label: bet._id, requestId: bet._id, payload: { scope, bet, status: 1 } }));
    const started = await post("/resources/jobs", { kind: "settle", title: "Settle market", items });
    const { id } = (await started.json()) as { id: string };
    const chunk = { jobId: id, scope, settlements: bets.map((bet) => ({ bet, status: 1 })) };

    // No such bet upstream: each is refused, and the refusal recorded.
    const first = (await (await post("/resources/bets/settle", chunk)).json()) as { results: Array<{ key: string; error?: string }> };
    expect(first.results.map((result) => result.error)).toEqual(["Bet not found", "Bet not found"]);
    const again = (await (await post("/resources/bets/settle", chunk)).json()) as { results: Array<{ key: string; error?: string }> };
    expect(again.results).toEqual(first.results);
    // The chunk's bets went together, in one call of the platform's /settle-bets (extension).
    expect(app.upstream.filter((line) => /settle-bets|settel-bet/.test(line))).toEqual(["POST /api/admin/settle-bets"]);
    const entries = await listAudit(app.store, { call: "settleBet" }, { limit: 100, offset: 0 });
    const sent = entries.filter((entry) => bets.some((bet) => JSON.stringify(entry.request).includes(bet._id)));
    expect(sent).toHaveLength(2);
    // Each under its job: the trail finds both by the job's id, and nothing else there.
    expect(sent.map((entry) => entry.jobId)).toEqual([id, id]);
    expect(await listAudit(app.store, { job: id }, { limit: 100, offset: 0 })).toEqual(sent);

    const resumed = (await (await post(`/resources/jobs/${id}/resume`)).json()) as { job: { items: Array<{ key: string; outcome: string }> } };
    expect(resumed.job.items.map(({ key, outcome }) => ({ key, outcome }))).toEqual([
      { key: "990001", outcome: "refused" },
      { key: "990002", outcome: "refused" },
    ]);
  });

  it("the super admin resumes another operator's job; a job that does not exist is refused", async () => {
    const items = [{ key: "990003", label: "990003", requestId: "990003", payload: {} }];
    const { id } = (await (await post("/resources/jobs", { kind: "settle", title: "Settle bet", items })).json()) as { id: string };
    await app.store.updateTable("console_jobs").set({ operator: "someone-else" }).where("id", "=", id).execute();
    expect((await post(`/resources/jobs/${id}/resume`)).status).toBe(200);
    expect((await post(`/resources/jobs/00000000-0000-4000-8000-000000000000/resume`)).status).toBe(404);
  });

  it("sends each bet of a chunk on its own when /settle-bets is refused whole (405), recording each bet once", async () => {
    const bets = ["990101", "990102"].map((_id) => ({ _id, eventId: "e-jobs", marketId: "m-jobs" }));
    const chunk = { scope: { eventId: "e-jobs", marketId: "m-jobs" }, settlements: bets.map((bet) => ({ bet, status: 2 })) };
    const sent = () => app.upstream.filter((line) => /settle-bets|settel-bet/.test(line));
    const before = sent().length;
    refuseTogether = true;
    try {
      const answer = (await (await post("/resources/bets/settle", chunk)).json()) as { results: Array<{ key: string; error?: string }> };
      expect(answer.results).toEqual(bets.map((bet) => ({ key: bet._id, error: "Bet not found" })));
    } finally {
      refuseTogether = false;
    }
    expect(sent().slice(before)).toEqual(["POST /api/admin/settle-bets", "POST /api/admin/settel-bet", "POST /api/admin/settel-bet"]);
    const entries = (await listAudit(app.store, { call: "settleBet" }, { limit: 100, offset: 0 })).filter((entry) =>
      bets.some((bet) => JSON.stringify(entry.request).includes(bet._id)),
    );
    expect(entries.map(({ outcome, status, message }) => ({ outcome, status, message }))).toEqual(
      bets.map(() => ({ outcome: "refused", status: 404, message: "Bet not found" })),
    );
    // Nothing was learnt from a 405: the next chunk goes together again.
    await post("/resources/bets/settle", { ...chunk, settlements: [{ bet: { ...bets[0]!, _id: "990103" }, status: 2 }] });
    expect(sent().slice(before + 3)).toEqual(["POST /api/admin/settle-bets"]);
  });
});
