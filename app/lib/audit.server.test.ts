import { describe, expect, it } from "vitest";
import { CALL_LIST } from "../../protocol/calls";
import { AUDITED_CALLS, ITEMIZED_CALLS, UNAUDITED_POSTS, answerSummary, redact } from "./audit.server";

describe("what the audit trail records", () => {
  it("every POST is audited, itemized or named as changing nothing to audit; the audited GETs are the three that change state", () => {
    const posts = CALL_LIST.filter((call) => call.method === "POST").map((call) => call.name);
    expect(posts.filter((name) => !(name in AUDITED_CALLS) && !(name in ITEMIZED_CALLS) && !UNAUDITED_POSTS.includes(name))).toEqual([]);
    const gets = CALL_LIST.filter((call) => call.method === "GET" && call.name in AUDITED_CALLS).map((call) => call.name);
    expect(gets.sort()).toEqual(["makeDefaultAdmin", "removeAdmin", "removeSlider"]);
  });

  it("redacts every password, secret and token, at any depth, and cuts long strings", () => {
    expect(
      redact({ user: "7", password: "hunter22", curPassword: "a", repeatPassword: "b", nested: [{ apiToken: "t", keep: 1 }], image: "x".repeat(500) }),
    ).toEqual({ user: "7", password: "[redacted]", curPassword: "[redacted]", repeatPassword: "[redacted]", nested: [{ apiToken: "[redacted]", keep: 1 }], image: "[500 characters]" });
  });

  it("keeps an answer's scalar fields, a list's length", () => {
    expect(answerSummary({ balance: 150, actorBalance: "unlimited", _id: "9", bet: { deep: true }, token: "t" })).toEqual({ balance: 150, actorBalance: "unlimited", _id: "9" });
    expect(answerSummary([1, 2, 3])).toEqual({ items: 3 });
    expect(answerSummary(undefined)).toBeNull();
  });
});
