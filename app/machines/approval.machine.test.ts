import { createActor, fromPromise, waitFor } from "xstate";
import { describe, expect, it, vi } from "vitest";
import { decisionProblem } from "../lib/forms/decision";
import { approvalMachine, type DecisionInput, type PendingRequest } from "./approval.machine";

const upi: PendingRequest = { id: "d1", kind: "deposit", username: "user0001", amount: 1000, type: 0 };
const usdt: PendingRequest = { id: "d2", kind: "deposit", username: "user0003", amount: 50, type: 2 };
const withdrawal: PendingRequest = { id: "w1", kind: "withdraw", username: "user0005", amount: 300 };

function start(decide: (input: DecisionInput) => Promise<void> = async () => {}) {
  const calls = { decide: vi.fn(decide), reload: vi.fn() };
  const actor = createActor(
    approvalMachine.provide({
      actors: { decide: fromPromise(({ input }) => calls.decide(input)) },
      actions: { reload: () => calls.reload() },
    }),
    { input: { check: decisionProblem } },
  ).start();
  return { actor, calls };
}

describe("approval machine", () => {
  it("confirms, submits once and reloads the list", async () => {
    const { actor, calls } = start();
    actor.send({ type: "approval.start", request: upi, decision: 1 });
    expect(actor.getSnapshot().hasTag("open")).toBe(true);
    actor.send({ type: "approval.confirm" });
    expect(actor.getSnapshot().hasTag("busy")).toBe(true);
    actor.send({ type: "approval.confirm" }); // a second y while submitting does nothing
    await waitFor(actor, (s) => s.matches("idle"));
    expect(calls.decide).toHaveBeenCalledTimes(1);
    expect(calls.decide.mock.calls[0]![0]).toMatchObject({ request: upi, decision: 1 });
    expect(calls.reload).toHaveBeenCalledTimes(1);
  });

  it("sends nothing when the operator answers no", () => {
    const { actor, calls } = start();
    actor.send({ type: "approval.start", request: withdrawal, decision: 2 });
    actor.send({ type: "approval.cancel" });
    expect(actor.getSnapshot().matches("idle")).toBe(true);
    expect(calls.decide).not.toHaveBeenCalled();
  });

  it("clears the other of a bonus pair when one is entered", () => {
    const { actor } = start();
    actor.send({ type: "approval.start", request: upi, decision: 1 });
    actor.send({ type: "approval.edit", field: "mainInrBonus", value: "100" });
    actor.send({ type: "approval.edit", field: "prnBonus", value: "5" });
    actor.send({ type: "approval.edit", field: "mainPrnBonus", value: "10" });
    actor.send({ type: "approval.edit", field: "inrBonus", value: "20" });
    expect(actor.getSnapshot().context.form).toMatchObject({ mainInrBonus: "", mainPrnBonus: "10", inrBonus: "20", prnBonus: "" });
    actor.send({ type: "approval.edit", field: "inrBonus", value: "" });
    expect(actor.getSnapshot().context.form).toMatchObject({ inrBonus: "", prnBonus: "" });
  });

  it("needs the value of 1 USDT to approve a USDT deposit, but not to fail it", async () => {
    const { actor, calls } = start();
    actor.send({ type: "approval.start", request: usdt, decision: 1 });
    actor.send({ type: "approval.confirm" });
    expect(actor.getSnapshot().context.error).toBe("Enter the value of 1 USDT");
    expect(calls.decide).not.toHaveBeenCalled();
    actor.send({ type: "approval.edit", field: "inr", value: "83.50" });
    actor.send({ type: "approval.confirm" });
    await waitFor(actor, (s) => s.matches("idle"));
    expect(calls.decide.mock.calls[0]![0].form.inr).toBe("83.50");

    actor.send({ type: "approval.start", request: usdt, decision: 2 });
    actor.send({ type: "approval.confirm" });
    await waitFor(actor, (s) => s.matches("idle"));
    expect(calls.decide).toHaveBeenCalledTimes(2);
  });

  it("refuses non-numeric bonuses and a remark over 100 characters", () => {
    const { actor } = start();
    actor.send({ type: "approval.start", request: upi, decision: 1 });
    actor.send({ type: "approval.edit", field: "prnBonus", value: "ten" });
    actor.send({ type: "approval.confirm" });
    expect(actor.getSnapshot().context.error).toBe("Bonuses and the USDT value must be numbers");
    actor.send({ type: "approval.cancel" });
    actor.send({ type: "approval.start", request: withdrawal, decision: 2 });
    actor.send({ type: "approval.edit", field: "remark", value: "x".repeat(101) });
    actor.send({ type: "approval.confirm" });
    expect(actor.getSnapshot().context.error).toBe("Remark must be at most 100 characters");
  });

  it("shows why it failed, reloads, and lets the operator try again or give up", async () => {
    let attempts = 0;
    const { actor, calls } = start(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error("already processed");
    });
    actor.send({ type: "approval.start", request: withdrawal, decision: 1 });
    actor.send({ type: "approval.confirm" });
    await waitFor(actor, (s) => s.matches("failed"));
    expect(actor.getSnapshot().context.error).toBe("already processed");
    expect(calls.reload).toHaveBeenCalledTimes(1);
    actor.send({ type: "approval.confirm" });
    await waitFor(actor, (s) => s.matches("idle"));
    expect(attempts).toBe(2);
  });
});
