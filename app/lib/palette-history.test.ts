import { afterEach, describe, expect, it, vi } from "vitest";
import { PALETTE_HISTORY_KEPT } from "./constants";
import { describeEntry, entryOf, historyOf, lastTaking, noteRun, stepHistory, withEntry, type HistoryEntry } from "./palette-history";
import type { SteppedCommand } from "../machines/palette.machine";

const deposit: SteppedCommand = {
  id: "account.deposit",
  title: "Deposit…",
  steps: [
    { kind: "pick", name: "user", label: "User or panel", source: "accounts" },
    { kind: "text", name: "amount", label: "Amount" },
    { kind: "text", name: "remark", label: "Remark", optional: true },
    { kind: "confirm", name: "confirm", label: (a) => `Deposit ${a.amount}?` },
  ],
};
const addUser: SteppedCommand = {
  id: "account.add-user",
  title: "Add user…",
  steps: [
    { kind: "text", name: "username", label: "Username" },
    { kind: "text", name: "password", label: "Password", secret: true },
    { kind: "confirm", name: "confirm", label: () => "Add?" },
  ],
};
const toggleLogin: SteppedCommand = { id: "account.toggle-login", title: "Toggle login", steps: [deposit.steps![0]!] };
const depositAnswers = { user: "42", "user.label": "user0042", "user.mode": "users", amount: "500", remark: "bonus", confirm: "yes" };

describe("palette history", () => {
  it("keeps a confirmed command's answers, without the confirmation itself", () => {
    expect(entryOf(deposit, depositAnswers)).toEqual({
      command: "account.deposit",
      answers: { user: "42", "user.label": "user0042", "user.mode": "users", amount: "500", remark: "bonus" },
    });
  });

  it("never keeps a command with a secret step: no entry at all, so no password or code", () => {
    expect(entryOf(addUser, { username: "newbie", password: "hunter2", confirm: "yes" })).toBeNull();
  });

  it("keeps only commands that end with a confirmation, where re-opening lands", () => {
    expect(entryOf(toggleLogin, { user: "42", "user.label": "user0042" })).toBeNull();
  });

  it("shows an entry as its title and answers, a pick by its label, words quoted", () => {
    expect(describeEntry(deposit, depositAnswers)).toBe('Deposit… · user0042 · 500 · "bonus"');
    expect(describeEntry(deposit, { ...depositAnswers, remark: "" })).toBe("Deposit… · user0042 · 500");
  });

  it("puts the newest first, drops the same entry seen earlier, and keeps at most PALETTE_HISTORY_KEPT", () => {
    const one = entryOf(deposit, depositAnswers)!;
    const two = entryOf(deposit, { ...depositAnswers, amount: "600" })!;
    expect(withEntry(withEntry([one], two), one)).toEqual([one, two]);
    let long: HistoryEntry[] = [];
    for (let index = 0; index < PALETTE_HISTORY_KEPT + 5; index++) long = withEntry(long, entryOf(deposit, { ...depositAnswers, amount: String(index + 1) })!);
    expect(long).toHaveLength(PALETTE_HISTORY_KEPT);
    expect(long[0]!.answers.amount).toBe(String(PALETTE_HISTORY_KEPT + 5));
  });

  it("steps older with ↑ up to the oldest entry, and newer with ↓ back to the empty palette", () => {
    let at = -1;
    at = stepHistory(at, "older", 2);
    expect(at).toBe(0);
    at = stepHistory(at, "older", 2);
    at = stepHistory(at, "older", 2);
    expect(at).toBe(1);
    at = stepHistory(at, "newer", 2);
    expect(at).toBe(0);
    at = stepHistory(at, "newer", 2);
    at = stepHistory(at, "newer", 2);
    expect(at).toBe(-1);
    expect(stepHistory(-1, "older", 0)).toBe(-1);
  });

  it("finds the last command a row can answer (its `user` from the row's sources), skipping those that ask no such pick", () => {
    const coupon: SteppedCommand = { id: "settings.coupon", title: "Add coupon…", steps: [{ kind: "text", name: "code", label: "Code" }, deposit.steps![3]!] };
    const makeDefault: SteppedCommand = {
      id: "account.make-default",
      title: "Make default admin…",
      steps: [{ kind: "pick", name: "user", label: "Panel", source: "panels" }, deposit.steps![3]!],
    };
    const history = [{ command: "settings.coupon", answers: { code: "X" } }, { command: "account.make-default", answers: { user: "7" } }, entryOf(deposit, depositAnswers)!];
    const commands = [coupon, makeDefault, deposit];
    const userRow = { sources: ["accounts"], answers: { user: "43", "user.label": "user0043" } };
    expect(lastTaking(history, commands, userRow)).toEqual({ entry: history[2], command: deposit });
    expect(lastTaking(history, commands, { ...userRow, sources: ["accounts", "panels"] })).toEqual({ entry: history[1], command: makeDefault });
    expect(lastTaking(history.slice(0, 1), commands, userRow)).toBeNull();
  });

  describe("in the tab", () => {
    afterEach(() => vi.unstubAllGlobals());

    it("keeps each operator's runs apart, and a run with a password writes nothing at all", () => {
      const stored = new Map<string, string>();
      vi.stubGlobal("sessionStorage", { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => void stored.set(key, value) });
      noteRun("admin", addUser, { username: "newbie", password: "hunter2", confirm: "yes" });
      expect(stored.size).toBe(0);
      noteRun("admin", deposit, depositAnswers);
      expect(historyOf("admin")).toEqual([entryOf(deposit, depositAnswers)]);
      expect(historyOf("staff")).toEqual([]);
      expect([...stored.values()].join()).not.toContain("hunter2");
    });
  });
});
