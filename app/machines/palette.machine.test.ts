import { createActor, fromPromise, waitFor } from "xstate";
import { describe, expect, it, vi } from "vitest";
import { UNKNOWN_OUTCOME } from "./bulk.machine";
import { paletteMachine, REQUIRED, type Answers, type SteppedCommand } from "./palette.machine";

const changePassword: SteppedCommand = {
  id: "password.change",
  title: "Change password…",
  steps: [
    { kind: "text", name: "curPassword", label: "Old Password", secret: true },
    { kind: "text", name: "password", label: "New Password", secret: true },
    {
      kind: "text",
      name: "confirmPassword",
      label: "Confirm Password",
      secret: true,
      check: (value, answers) => (value === answers.password ? null : "Password and confirm password do not match"),
    },
  ],
};
const deposit: SteppedCommand = {
  id: "deposit",
  title: "Deposit…",
  steps: [
    { kind: "text", name: "amount", label: "Amount" },
    { kind: "text", name: "remark", label: "Remark", optional: true },
    { kind: "confirm", name: "confirm", label: (a) => `Deposit ${a.amount}?` },
  ],
};
const logout: SteppedCommand = { id: "session.logout", title: "Logout" };
const pickDeposit: SteppedCommand = {
  id: "account.deposit",
  title: "Deposit…",
  steps: [
    { kind: "pick", name: "user", label: "User or panel", source: "accounts" },
    { kind: "text", name: "amount", label: "Amount" },
  ],
};

function start(run: (command: SteppedCommand, answers: Answers) => Promise<void> = async () => {}) {
  const runs = vi.fn(run);
  const actor = createActor(
    paletteMachine.provide({
      actors: { runCommand: fromPromise(({ input }) => runs(input.command, input.answers)) },
    }),
  ).start();
  return { actor, runs };
}

const answer = (value: string) => ({ type: "palette.answer" as const, value });

describe("palette machine", () => {
  it("runs a command without steps at once", async () => {
    const { actor, runs } = start();
    actor.send({ type: "palette.choose", command: logout });
    await waitFor(actor, (s) => s.status === "done");
    expect(runs).toHaveBeenCalledWith(logout, {});
  });

  it("asks each step in turn and runs with every answer", async () => {
    const { actor, runs } = start();
    actor.send({ type: "palette.choose", command: changePassword });
    expect(actor.getSnapshot().hasTag("asking")).toBe(true);
    actor.send(answer("old"));
    actor.send(answer("new-pass"));
    expect(actor.getSnapshot().context.stepIndex).toBe(2);
    actor.send(answer("new-pass"));
    await waitFor(actor, (s) => s.status === "done");
    expect(runs).toHaveBeenCalledTimes(1);
    expect(runs.mock.calls[0]![1]).toEqual({ curPassword: "old", password: "new-pass", confirmPassword: "new-pass" });
  });

  it("refuses an empty or wrong answer and stays on the step", () => {
    const { actor, runs } = start();
    actor.send({ type: "palette.choose", command: changePassword });
    actor.send(answer(""));
    expect(actor.getSnapshot().context).toMatchObject({ stepIndex: 0, error: REQUIRED });
    actor.send(answer("old"));
    actor.send(answer("new-pass"));
    actor.send(answer("typo"));
    expect(actor.getSnapshot().context).toMatchObject({
      stepIndex: 2,
      error: "Password and confirm password do not match",
    });
    expect(runs).not.toHaveBeenCalled();
  });

  it("accepts an empty optional answer", () => {
    const { actor } = start();
    actor.send({ type: "palette.choose", command: deposit });
    actor.send(answer("100"));
    actor.send(answer(""));
    expect(actor.getSnapshot().context.stepIndex).toBe(2);
  });

  it("goes back one step on Backspace, forgetting that answer, and back to the list from the first", () => {
    const { actor } = start();
    actor.send({ type: "palette.choose", command: changePassword });
    actor.send(answer("old"));
    actor.send(answer("new-pass"));
    actor.send({ type: "palette.back" });
    expect(actor.getSnapshot().context.stepIndex).toBe(1);
    expect(actor.getSnapshot().context.answers).toEqual({ curPassword: "old" });
    actor.send({ type: "palette.back" });
    actor.send({ type: "palette.back" });
    expect(actor.getSnapshot().hasTag("choosing")).toBe(true);
    expect(actor.getSnapshot().context.command).toBeNull();
  });

  it("keeps what a pick knew of the choice, and forgets it when going back past the pick", async () => {
    const { actor, runs } = start();
    actor.send({ type: "palette.choose", command: pickDeposit });
    actor.send({ type: "palette.answer", value: "", extra: {} });
    expect(actor.getSnapshot().context.error).toBe(REQUIRED);
    actor.send({ type: "palette.answer", value: "42", extra: { "user.label": "user0042", "user.mode": "users" } });
    actor.send({ type: "palette.back" });
    expect(actor.getSnapshot().context.answers).toEqual({});
    actor.send({ type: "palette.answer", value: "42", extra: { "user.label": "user0042", "user.mode": "users" } });
    actor.send(answer("250"));
    await waitFor(actor, (s) => s.status === "done");
    expect(runs.mock.calls[0]![1]).toEqual({ user: "42", "user.label": "user0042", "user.mode": "users", amount: "250" });
  });

  it("abandons the command when the confirmation is declined", () => {
    const { actor, runs } = start();
    actor.send({ type: "palette.choose", command: deposit });
    actor.send(answer("100"));
    actor.send(answer("gift"));
    actor.send(answer("no"));
    expect(actor.getSnapshot().hasTag("choosing")).toBe(true);
    expect(runs).not.toHaveBeenCalled();
  });

  it("keeps earlier answers and shows the reason when the run fails, and can run again", async () => {
    let attempt = 0;
    const { actor, runs } = start(async () => {
      attempt += 1;
      if (attempt === 1) throw new Error("Current password is incorrect");
    });
    actor.send({ type: "palette.choose", command: changePassword });
    actor.send(answer("wrong"));
    actor.send(answer("new-pass"));
    actor.send(answer("new-pass"));
    await waitFor(actor, (s) => s.hasTag("asking") && s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({
      stepIndex: 2,
      error: "Current password is incorrect",
      answers: { curPassword: "wrong", password: "new-pass" },
    });
    actor.send(answer("new-pass"));
    await waitFor(actor, (s) => s.status === "done");
    expect(runs).toHaveBeenCalledTimes(2);
  });

  it("returns to the list with the reason when a command without steps fails", async () => {
    const { actor } = start(async () => {
      throw new Error("Something went wrong");
    });
    actor.send({ type: "palette.choose", command: logout });
    await waitFor(actor, (s) => s.hasTag("choosing") && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe("Something went wrong");
  });

  it("skips the steps a button already answered and still asks the confirmation", async () => {
    const makeDefault: SteppedCommand = {
      id: "account.make-default",
      title: "Make default admin…",
      steps: [
        { kind: "pick", name: "user", label: "Panel", source: "panels" },
        { kind: "confirm", name: "confirm", label: (a) => `Make ${a["user.label"]} the default admin?` },
      ],
    };
    const { actor, runs } = start();
    actor.send({ type: "palette.choose", command: makeDefault, answers: { user: "7", "user.label": "panel7" } });
    expect(actor.getSnapshot().context.stepIndex).toBe(1);
    expect(runs).not.toHaveBeenCalled();
    actor.send(answer("yes"));
    await waitFor(actor, (s) => s.status === "done");
    expect(runs).toHaveBeenCalledWith(makeDefault, { user: "7", "user.label": "panel7", confirm: "yes" });
  });

  it("asks an event's market when the screen answered the event, and Backspace reaches the event step again", async () => {
    const settleMarket: SteppedCommand = {
      id: "bets.settle-market",
      title: "Settle market…",
      steps: [
        { kind: "pick", name: "event", label: "Event", source: "pending-events" },
        { kind: "pick", name: "market", label: "Market", source: "markets", event: "event" },
      ],
    };
    const { actor, runs } = start();
    actor.send({ type: "palette.choose", command: settleMarket, answers: { event: "E1" } });
    expect(actor.getSnapshot().context).toMatchObject({ stepIndex: 1, answers: { event: "E1" } });
    actor.send({ type: "palette.back" });
    expect(actor.getSnapshot().hasTag("asking")).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ stepIndex: 0, answers: {} });
    actor.send({ type: "palette.answer", value: "E2", extra: { "event.label": "Mumbai v Delhi" } });
    actor.send({ type: "palette.answer", value: "E2-MO", extra: { "market.label": "Match Odds" } });
    await waitFor(actor, (s) => s.status === "done");
    expect(runs).toHaveBeenCalledWith(settleMarket, {
      event: "E2",
      "event.label": "Mumbai v Delhi",
      market: "E2-MO",
      "market.label": "Match Odds",
    });
  });

  it("runs at once when the screen answered every step (the desk filtered to a market)", async () => {
    const voidEvent: SteppedCommand = {
      id: "bets.void-event",
      title: "Void bets of event…",
      steps: [{ kind: "pick", name: "event", label: "Event", source: "pending-events" }],
    };
    const { actor, runs } = start();
    actor.send({ type: "palette.choose", command: voidEvent, answers: { event: "E1" } });
    await waitFor(actor, (s) => s.status === "done");
    expect(runs).toHaveBeenCalledWith(voidEvent, { event: "E1" });
  });

  it("sends the same requestId again when y retries after an unknown outcome, and a fresh one for the next run", async () => {
    const sent: string[] = [];
    const actor = createActor(
      paletteMachine.provide({
        actors: {
          runCommand: fromPromise(async ({ input }) => {
            sent.push(input.requestId);
            if (sent.length === 1) throw new Error(`${UNKNOWN_OUTCOME} (socket hang up)`);
          }),
        },
      }),
    ).start();
    const choose = () => {
      actor.send({ type: "palette.choose", command: deposit });
      actor.send(answer("500"));
      actor.send(answer(""));
      actor.send(answer("yes"));
    };
    choose();
    await waitFor(actor, (s) => s.hasTag("asking") && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(`${UNKNOWN_OUTCOME} (socket hang up)`);
    actor.send(answer("yes"));
    await waitFor(actor, (s) => s.status === "done");
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]).toBe(sent[0]);

    const next = createActor(
      paletteMachine.provide({ actors: { runCommand: fromPromise(async ({ input }) => void sent.push(input.requestId)) } }),
    ).start();
    next.send({ type: "palette.choose", command: logout });
    await waitFor(next, (s) => s.status === "done");
    expect(sent[2]).not.toBe(sent[0]);
  });

  it("re-opens a command run before at its confirmation, its answers filled in, and runs them on y", async () => {
    const { actor, runs } = start();
    actor.send({ type: "palette.reopen", command: deposit, answers: { amount: "500", remark: "bonus" } });
    expect(actor.getSnapshot().hasTag("asking")).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ stepIndex: 2, answers: { amount: "500", remark: "bonus" } });
    actor.send(answer("yes"));
    await waitFor(actor, (s) => s.status === "done");
    expect(runs).toHaveBeenCalledTimes(1);
    expect(runs.mock.calls[0]![1]).toEqual({ amount: "500", remark: "bonus", confirm: "yes" });
  });

  it("lets the operator go back from a re-opened confirmation and change an answer", async () => {
    const { actor, runs } = start();
    actor.send({ type: "palette.reopen", command: deposit, answers: { amount: "500", remark: "bonus", confirm: "yes" } });
    expect(actor.getSnapshot().context.stepIndex).toBe(2);
    actor.send({ type: "palette.back" });
    actor.send({ type: "palette.back" });
    expect(actor.getSnapshot().context).toMatchObject({ stepIndex: 0, answers: {} });
    actor.send(answer("750"));
    actor.send(answer("bonus"));
    actor.send(answer("yes"));
    await waitFor(actor, (s) => s.status === "done");
    expect(runs).toHaveBeenCalledTimes(1);
    expect(runs.mock.calls[0]![1]).toEqual({ amount: "750", remark: "bonus", confirm: "yes" });
  });

  it("asks a missing earlier answer of a re-opened command first", () => {
    const { actor } = start();
    actor.send({ type: "palette.reopen", command: deposit, answers: { remark: "bonus" } });
    expect(actor.getSnapshot().context.stepIndex).toBe(0);
  });
});
