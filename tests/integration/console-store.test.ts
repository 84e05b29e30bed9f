/**
 * The console's own store (ADR 0008): created and migrated on first open, the audit trail's hash
 * chain, audit:verify naming an edited and a deleted row, and appends from two connections
 * forming one chain. On embedded PGlite, and on PostgreSQL in the integration-pg project, each
 * store in a schema of its own.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { appendAudit, appendAuditBatch, countAudit, listAudit, verifyAudit, type AuditDraft } from "../../app/lib/store/audit-log.server";
import { openConsoleStore } from "../../app/lib/store/open.server";
import { consoleStores } from "./support/console-stores";





const draft = (n: number, overrides: Partial<AuditDraft> = {}): AuditDraft => ({
  operator: "admin",
  operatorRole: 1,
  session: "s1",
  call: "userDeposit",
  kind: "money",
  accountId: `id-${n}`,
  accountName: null,
  amount: 100 + n,
  balanceBefore: 0,
  balanceAfter: 100 + n,
  outcome: "ok",
  status: 200,
  message: "Deposit successful",
  request: { user: `id-${n}`, amount: 100 + n, remark: "ü ✓", nested: { b: 1, a: [1.5, null] } },
  answer: { balance: 100 + n },
  ...overrides,
});

const { open, targets } = consoleStores("console_store");

describe.each(targets)("the console store on %s", (_name, target) => {
  it("is created on first open, and opening it again applies nothing twice", async () => {
    const kept = await target();
    const where = kept.kind === "pglite" ? { kind: "pglite" as const, dataDir: join(await mkdtemp(join(tmpdir(), "console-store-")), "console") } : kept;
    const store = await openConsoleStore(where);
    await appendAudit(store, draft(1));
    await store.destroy();
    const again = await open(where);
    expect(await verifyAudit(again)).toMatchObject({ ok: true, entries: 1n });
  });

  it("chains entries; audit:verify names an edited row, a deleted row and a deleted tail", async () => {
    const store = await open(await target());
    const entries = [];
    for (let n = 1; n <= 5; n++) entries.push(await appendAudit(store, draft(n)));
    expect(entries.map((entry) => entry.seq)).toEqual([1n, 2n, 3n, 4n, 5n]);
    expect(entries[1]!.prevHash).toBe(entries[0]!.hash);
    expect(await verifyAudit(store)).toEqual({ ok: true, entries: 5n, head: entries[4]!.hash });

    // The console itself cannot change a row.
    await expect(sql`update console_audit set amount = 1 where seq = 3`.execute(store)).rejects.toThrow(/append-only/);
    await expect(sql`delete from console_audit where seq = 3`.execute(store)).rejects.toThrow(/append-only/);

    await store.transaction().execute(async (trx) => {
      await sql`alter table console_audit disable trigger user`.execute(trx);
      await sql`update console_audit set amount = 1000000 where seq = 3`.execute(trx);
    });
    expect(await verifyAudit(store)).toMatchObject({ ok: false, seq: 3n, problem: "entry 3 was edited" });
    await sql`update console_audit set amount = 103 where seq = 3`.execute(store);
    expect(await verifyAudit(store)).toMatchObject({ ok: true });

    // Edited with its hash recomputed: the next entry no longer follows it.
    await sql`update console_audit set hash = ${"f".repeat(64)} where seq = 2`.execute(store);
    expect(await verifyAudit(store)).toMatchObject({ ok: false, seq: 2n });
    await sql`update console_audit set hash = ${entries[1]!.hash} where seq = 2`.execute(store);

    await sql`delete from console_audit where seq = 4`.execute(store);
    expect(await verifyAudit(store)).toMatchObject({ ok: false, seq: 4n, problem: "entry 4 is missing (deleted)" });
    await sql`delete from console_audit where seq = 5`.execute(store);
    expect(await verifyAudit(store)).toMatchObject({ ok: false, seq: 4n, problem: "entries 4 to 5 are missing (deleted)" });
  });

  it("chains entries naming a job with those that name none; an edited or a removed job id breaks the chain", async () => {
    const store = await open(await target());
    await appendAudit(store, draft(1));
    const named = await appendAudit(store, draft(2, { jobId: "job-1" }));
    await appendAudit(store, draft(3));
    expect(named.jobId).toBe("job-1");
    expect(await verifyAudit(store)).toMatchObject({ ok: true, entries: 3n });
    expect((await listAudit(store, { job: "job-1" }, { limit: 10, offset: 0 })).map((entry) => entry.seq)).toEqual([2n]);

    for (const forged of ["job-2", null]) {
      await store.transaction().execute(async (trx) => {
        await sql`alter table console_audit disable trigger user`.execute(trx);
        await sql`update console_audit set job_id = ${forged} where seq = 2`.execute(trx);
      });
      expect(await verifyAudit(store)).toMatchObject({ ok: false, seq: 2n, problem: "entry 2 was edited" });
    }
  });

  it("filters by operator, account (to or by), call, outcome and time", async () => {
    const store = await open(await target());
    await appendAudit(store, draft(1, { accountId: "u42", operator: "staff" }));
    await appendAudit(store, draft(2, { call: "signIn", kind: "session", operator: "user0042", accountId: null }));
    await appendAudit(store, draft(3, { outcome: "refused", status: 400 }));
    expect(await countAudit(store, { operator: "staff" })).toBe(1);
    const account = await listAudit(store, { account: { name: "user0042", ids: ["u42"] } }, { limit: 10, offset: 0 });
    expect(account.map((entry) => entry.seq)).toEqual([2n, 1n]);
    expect(await countAudit(store, { call: "signIn" })).toBe(1);
    expect(await countAudit(store, { outcome: "refused" })).toBe(1);
    expect(await countAudit(store, { from: new Date(Date.now() + 60_000) })).toBe(0);
    expect(await countAudit(store, { to: new Date(Date.now() + 60_000) })).toBe(3);
    // A count stops one past its limit ("more"); the whole trail's is its head's number, exact.
    expect(await countAudit(store, { to: new Date(Date.now() + 60_000) }, 1)).toBe(2);
    expect(await countAudit(store, {}, 1)).toBe(3);
  });

  it("keeps one chain when two connections append at once", async () => {
    const where = await target();
    const first = await open(where);
    // PGlite is one connection per database, so there the appends race on one handle; on
    // PostgreSQL two pools stand for two console instances.
    const second = where.kind === "postgres" ? await open(where) : first;
    await Promise.all(
      Array.from({ length: 40 }, (_, n) => appendAudit(n % 2 ? first : second, draft(n, { operator: n % 2 ? "one" : "two" }))),
    );
    expect(await verifyAudit(first)).toMatchObject({ ok: true, entries: 40n });
  });

  it("verifies an intact chain as intact while another instance appends to it", async () => {
    const where = await target();
    const appender = await open(where);
    const verifier = where.kind === "postgres" ? await open(where) : appender;
    await appendAuditBatch(appender, Array.from({ length: 2500 }, (_, n) => draft(n)));
    let appending = true;
    const appends = (async () => {
      for (let n = 0; appending; n++) await appendAudit(appender, draft(n));
    })();
    const checks = [];
    for (let run = 0; run < 3; run++) checks.push(await verifyAudit(verifier));
    appending = false;
    await appends;
    // Each one snapshot: the rows and the head of the same moment.
    expect(checks).toEqual(Array(3).fill(expect.objectContaining({ ok: true })));
  });
});
