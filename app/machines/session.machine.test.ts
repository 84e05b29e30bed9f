import { createActor, fromPromise, waitFor } from "xstate";
import { describe, expect, it, vi } from "vitest";
import { sessionMachine, type CheckResult, type Credentials, type SignedIn } from "./session.machine";

function start(
  signedIn: boolean,
  effects: {
    signIn?: (c: Credentials) => Promise<SignedIn>;
    check?: () => Promise<CheckResult>;
    signOut?: () => Promise<void>;
  } = {},
) {
  const calls = { enterConsole: vi.fn(), leaveConsole: vi.fn(), reportError: vi.fn(), refresh: vi.fn(), signOut: vi.fn() };
  const machine = sessionMachine.provide({
    actors: {
      signIn: fromPromise(({ input }) => (effects.signIn ?? (async () => ({ redirectTo: "/" })))(input)),
      checkSession: fromPromise(() => (effects.check ?? (async () => "active" as const))()),
      signOut: fromPromise(async () => {
        calls.signOut();
        await (effects.signOut ?? (async () => {}))();
      }),
    },
    actions: {
      enterConsole: (_, params) => calls.enterConsole(params),
      leaveConsole: () => calls.leaveConsole(),
      reportError: (_, params) => calls.reportError(params),
      refresh: () => calls.refresh(),
    },
    delays: { checkInterval: 5 },
  });
  const actor = createActor(machine).start();
  if (signedIn) actor.send({ type: "session.resumed" });
  return { actor, calls };
}

const credentials = { username: "admin", password: "admin123", redirectTo: "/change-password" };

describe("session machine", () => {
  it("starts signed out and resumes when a signed-in page shows", () => {
    expect(start(true).actor.getSnapshot().hasTag("signedIn")).toBe(true);
    expect(start(false).actor.getSnapshot().hasTag("signedOut")).toBe(true);
  });

  it("signs in and enters the console at the vetted address", async () => {
    const { actor, calls } = start(false, { signIn: async () => ({ redirectTo: "/change-password" }) });
    actor.send({ type: "session.submit", credentials });
    expect(actor.getSnapshot().hasTag("busy")).toBe(true);
    await waitFor(actor, (s) => s.hasTag("signedIn"));
    expect(calls.enterConsole).toHaveBeenCalledWith({ redirectTo: "/change-password" });
  });

  it("stays signed out and reports the server's message when sign-in fails", async () => {
    const { actor, calls } = start(false, {
      signIn: async () => {
        throw new Error("Invalid username or password");
      },
    });
    actor.send({ type: "session.submit", credentials });
    await waitFor(actor, (s) => s.matches("signedOut") && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe("Invalid username or password");
    expect(calls.reportError).toHaveBeenCalledWith({ message: "Invalid username or password" });
    expect(calls.enterConsole).not.toHaveBeenCalled();
  });

  it("keeps checking while the session is active and refreshes the shell", async () => {
    const check = vi.fn(async () => "active" as const);
    const { actor, calls } = start(true, { check });
    await vi.waitFor(() => expect(check.mock.calls.length).toBeGreaterThanOrEqual(3));
    expect(actor.getSnapshot().hasTag("signedIn")).toBe(true);
    expect(calls.refresh).toHaveBeenCalled();
    actor.stop();
  });

  it("ends the session when the logout check answers true or the admin is not found", async () => {
    const { actor, calls } = start(true, { check: async () => "ended" });
    await waitFor(actor, (s) => s.matches("signedOut"));
    expect(calls.signOut).toHaveBeenCalledTimes(1);
    expect(calls.leaveConsole).toHaveBeenCalledTimes(1);
  });

  it("does not throw the operator out when the check itself fails", async () => {
    let attempts = 0;
    const { actor } = start(true, {
      check: async () => {
        attempts += 1;
        throw new Error("network down");
      },
    });
    await vi.waitFor(() => expect(attempts).toBeGreaterThanOrEqual(2));
    expect(actor.getSnapshot().hasTag("signedIn")).toBe(true);
    actor.stop();
  });

  it("logs out on request, and leaves even if clearing the cookie fails", async () => {
    const ok = start(true);
    ok.actor.send({ type: "session.logout" });
    await waitFor(ok.actor, (s) => s.matches("signedOut"));
    expect(ok.calls.leaveConsole).toHaveBeenCalledTimes(1);

    const failing = start(true, {
      signOut: async () => {
        throw new Error("offline");
      },
    });
    failing.actor.send({ type: "session.logout" });
    await waitFor(failing.actor, (s) => s.matches("signedOut"));
    expect(failing.calls.leaveConsole).toHaveBeenCalledTimes(1);
  });

  it("follows the server when it already cleared the session, without leaving twice", () => {
    const { actor, calls } = start(true);
    actor.send({ type: "session.cleared" });
    expect(actor.getSnapshot().matches("signedOut")).toBe(true);
    expect(calls.signOut).not.toHaveBeenCalled();
    expect(calls.leaveConsole).not.toHaveBeenCalled();
  });
});
