/**
 * The second factor in the console's store (issue 30): a code accepted once, drift, the cool-down
 * after five failures per operator and per address, recovery codes single-use, and a pending
 * sign-in taken once. On embedded PGlite and, where given, PostgreSQL.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import {
  ATTEMPT_RULE,
  attempt,
  checkRecoveryCode,
  checkTotp,
  enrolmentOf,
  issueRecoveryCodes,
  startTotpEnrolment,
  USED_CODE,
  WRONG_CODE,
} from "../../app/lib/mfa/second-factor.server";
import { codeAt, TOTP_PERIOD_SECONDS } from "../../app/lib/mfa/totp.server";
import { deleteFactors, readPending, savePending, takePending } from "../../app/lib/store/second-factor.server";
import { consoleStores } from "./support/console-stores";

const { open, targets } = consoleStores("second_factor");
const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

describe.each(targets)("the second factor on %s", (_name, target) => {
  it("enrols with a code from the key shown, and accepts each code once", async () => {
    const store = await open(await target());
    const { key, qr } = (await startTotpEnrolment(store, "alice"))!;
    expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect((await enrolmentOf(store, "alice")).enrolled).toBe(false);
    const now = Date.now();
    expect(await checkTotp(store, "alice", codeAt(key, now), now)).toBeNull();
    expect((await enrolmentOf(store, "alice")).enrolled).toBe(true);
    // The same code again, inside its window: a replay.
    expect(await checkTotp(store, "alice", codeAt(key, now), now)).toBe(USED_CODE);
    // The step before the accepted one, though within drift, is spent too.
    expect(await checkTotp(store, "alice", codeAt(key, now - STEP_MS), now)).toBe(USED_CODE);
    // The next step's code (one step of drift ahead) is new.
    expect(await checkTotp(store, "alice", codeAt(key, now + STEP_MS), now)).toBeNull();
    expect(await checkTotp(store, "alice", codeAt(key, now + 3 * STEP_MS), now)).toBe(WRONG_CODE);
    // A confirmed key is not replaced by starting again.
    expect(await startTotpEnrolment(store, "alice")).toBeNull();
  });

  it("cools an operator down after five failures, refusing even the right code, on every address", async () => {
    const store = await open(await target());
    const { key } = (await startTotpEnrolment(store, "bob"))!;
    const tryCode = (code: string, address: string) => attempt(store, { username: "bob", address }, "totp", () => checkTotp(store, "bob", code));
    for (let i = 0; i < ATTEMPT_RULE.limit - 1; i++) expect(await tryCode("000000", `10.0.0.${i}`)).toMatchObject({ ok: false, message: expect.stringMatching(/not right|used/) });
    expect(await tryCode("000000", "10.0.0.9")).toMatchObject({ ok: false });
    expect(await tryCode(codeAt(key, Date.now()), "10.0.0.10")).toMatchObject({ ok: false, message: expect.stringMatching(/^Too many wrong codes: try again in 5 minutes/) });
    // When the cool-down is over, the right code works and the count starts again.
    await sql`update console_mfa_attempts set locked_until = now() - interval '1 second'`.execute(store);
    expect(await tryCode(codeAt(key, Date.now()), "10.0.0.10")).toEqual({ ok: true, factor: "totp" });
  });

  it("cools an address down after five failures, whichever operators it tries", async () => {
    const store = await open(await target());
    for (let i = 0; i < ATTEMPT_RULE.limit; i++) {
      await attempt(store, { username: `user${i}`, address: "192.0.2.7" }, "totp", () => checkTotp(store, `user${i}`, "123456"));
    }
    const next = await attempt(store, { username: "carol", address: "192.0.2.7" }, "totp", async () => null);
    expect(next).toMatchObject({ ok: false, message: expect.stringMatching(/^Too many wrong codes/) });
    expect(await attempt(store, { username: "carol", address: "192.0.2.8" }, "totp", async () => null)).toEqual({ ok: true, factor: "totp" });
  });

  it("takes each of ten recovery codes once, and a reset forgets them", async () => {
    const store = await open(await target());
    const codes = await issueRecoveryCodes(store, "dave");
    expect(new Set(codes).size).toBe(10);
    expect(await checkRecoveryCode(store, "dave", codes[3]!.toUpperCase())).toBeNull();
    expect(await checkRecoveryCode(store, "dave", codes[3]!)).toMatch(/not right \(or was used already\)/);
    expect(await checkRecoveryCode(store, "erin", codes[4]!)).not.toBeNull();
    expect((await enrolmentOf(store, "dave")).recoveryLeft).toBe(9);
    // Racing the same code: one wins.
    const raced = await Promise.all([checkRecoveryCode(store, "dave", codes[5]!), checkRecoveryCode(store, "dave", codes[5]!)]);
    expect(raced.filter((refusal) => refusal === null)).toHaveLength(1);
    await deleteFactors(store, "dave");
    expect(await checkRecoveryCode(store, "dave", codes[6]!)).not.toBeNull();
  });

  it("holds a pending sign-in for its five minutes, and lets it be taken once", async () => {
    const store = await open(await target());
    await savePending(store, { id: "p1", username: "frank", role: 2, udid: "u", tokenSealed: "sealed" }, 300);
    expect(await readPending(store, "p1")).toMatchObject({ username: "frank", role: 2 });
    expect(await Promise.all([takePending(store, "p1"), takePending(store, "p1")])).toEqual(expect.arrayContaining([true, false]));
    await savePending(store, { id: "p2", username: "frank", role: 2, udid: "u", tokenSealed: "sealed" }, 300);
    await sql`update console_mfa_pending set expires_at = now() - interval '1 second'`.execute(store);
    expect(await readPending(store, "p2")).toBeNull();
  });
});
