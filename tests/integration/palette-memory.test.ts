/**
 * The palette's memory (issue 32) through HTTP, on a store two console instances share (PGlite,
 * and PostgreSQL where one is given): a command chosen on one instance counts on the other, for
 * that operator alone; a bad id changes nothing; a signed-out cookie reads and writes nothing.
 */
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { FRECENCY_KEPT } from "../../app/lib/store/frecency.server";
import type { ConsoleStore } from "../../app/lib/store/schema";
import { consoleStores } from "./support/console-stores";
import { signInTo, twoConsolesOn, type TestConsole } from "./support/console.js";

const { open, targets } = consoleStores("palette");

type Uses = Record<string, { score: number; usedAt: number }>;

describe.each(targets)("the palette's frecency on %s", (_name, target) => {
  let store: ConsoleStore;
  let one: TestConsole;
  let two: TestConsole;
  twoConsolesOn(async () => open(await target()), (started) => ({ store, one, two } = started));

  const choose = (app: TestConsole, cookie: string, command: unknown) =>
    app.fetch("/resources/palette", { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify({ command }) });
  const usesOn = async (app: TestConsole, cookie: string) => {
    const response = await app.fetch("/resources/palette", { headers: { Cookie: cookie, Accept: "application/json" } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { uses: Uses }).uses;
  };

  it("counts a command chosen on one instance on the other, for that operator alone", async () => {
    const onOne = await signInTo(one, DEMO_ACCOUNTS.admin);
    const onTwo = await signInTo(two, DEMO_ACCOUNTS.admin);
    const staff = await signInTo(two, DEMO_ACCOUNTS.staff);
    const before = (await usesOn(two, onTwo))["account.deposit"]?.score ?? 0;
    for (let i = 0; i < 3; i++) expect((await choose(one, onOne, "account.deposit")).status).toBe(200);
    expect((await choose(two, onTwo, "go.users")).status).toBe(200);

    const seen = await usesOn(two, onTwo);
    // Three uses within a second: barely decayed.
    expect(seen["account.deposit"]!.score - before).toBeGreaterThan(2.99);
    expect(seen["go.users"]!.score).toBeGreaterThan(0.99);
    expect(Math.abs(seen["go.users"]!.usedAt - Date.now())).toBeLessThan(60_000);
    expect(await usesOn(one, onOne)).toEqual(seen);
    expect((await usesOn(two, staff))["account.deposit"]).toBeUndefined();
  });

  it("refuses what is not a command id, and keeps nothing of it", async () => {
    const cookie = await signInTo(one, DEMO_ACCOUNTS.admin);
    const before = await usesOn(one, cookie);
    for (const bad of ["", "deposit", "ACCOUNT.DEPOSIT", "a.b.c.d.e", "account.deposit; drop table console_frecency", 42, null, "x".repeat(100) + ".y"]) {
      const response = await choose(one, cookie, bad);
      expect({ bad, status: response.status }).toEqual({ bad, status: 400 });
    }
    expect(await usesOn(one, cookie)).toEqual(before);
  });

  it("keeps at most FRECENCY_KEPT commands an operator", async () => {
    const cookie = await signInTo(one, DEMO_ACCOUNTS.staff);
    for (let i = 0; i < FRECENCY_KEPT + 5; i++) await choose(one, cookie, `flood.command-${i}`);
    expect(Object.keys(await usesOn(one, cookie)).length).toBe(FRECENCY_KEPT);
  }, 120_000);

  it("reads and writes nothing for a signed-out cookie", async () => {
    const cookie = await signInTo(one, DEMO_ACCOUNTS.admin);
    const out = await one.fetch("/session", { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify({ intent: "signOut" }) });
    expect(out.status).toBe(200);
    const rows = await store.selectFrom("console_frecency").select(["operator", "command", "score"]).execute();
    const read = await one.fetch("/resources/palette", { headers: { Cookie: cookie, Accept: "application/json" } });
    const written = await choose(one, cookie, "account.withdraw");
    for (const response of [read, written]) expect([response.status, response.headers.get("Location")]).toEqual([302, expect.stringMatching(/^\/login/)]);
    expect(await store.selectFrom("console_frecency").select(["operator", "command", "score"]).execute()).toEqual(rows);
  });
});
