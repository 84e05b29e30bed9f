import { describe, expect, it } from "vitest";
import { pendingShouldRevalidate } from "./PendingBets";

const asked = (from: string, to: string, more: { formMethod?: "POST" } = {}) =>
  pendingShouldRevalidate({
    currentUrl: new URL(`http://console.test/pending-sport-bets${from}`),
    nextUrl: new URL(`http://console.test/pending-sport-bets${to}`),
    currentParams: {},
    nextParams: {},
    defaultShouldRevalidate: true,
    ...more,
  } as Parameters<typeof pendingShouldRevalidate>[0]);

describe("the pending desk's list is read again", () => {
  it("not when a dialog opens or closes over it (Settle market…, Void bets of event…, a bet's confirmation)", () => {
    expect(asked("?eventId=7&marketId=7-MO&settle=1", "?eventId=7&marketId=7-MO")).toBe(false);
    expect(asked("?eventId=7", "?void=1&eventId=7")).toBe(false);
    expect(asked("?open=42&outcome=1", "?open=42")).toBe(false);
  });

  it("when its filter or page changes, when asked to again at the same address, and after a form posts", () => {
    expect(asked("?eventId=7&settle=1", "?eventId=8")).toBe(true);
    expect(asked("?eventId=7", "?eventId=7&page=2")).toBe(true);
    expect(asked("?eventId=7", "?eventId=7")).toBe(true);
    expect(asked("?settle=1", "?", { formMethod: "POST" })).toBe(true);
  });
});
