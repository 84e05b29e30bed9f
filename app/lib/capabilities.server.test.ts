import { describe, expect, it, vi } from "vitest";
import type { CallName } from "../../protocol/calls";
import { ApiError } from "./api.server";
import { createCapabilities } from "./capabilities.server";

const ADMIN = "http://operator.example/api/admin";
const SPORTS = "http://operator.example/api/sports";
const fresh = () => createCapabilities((name: CallName) => (name === "matches" ? SPORTS : ADMIN));

describe("capabilities learnt from the answers", () => {
  it("an extension call's bare 404 means the API lacks it; the next call is refused without asking", async () => {
    const capabilities = fresh();
    const work = vi.fn(async () => {
      throw new ApiError("Not found", 404);
    });
    await expect(capabilities.withExtension("resettleBet", work)).rejects.toThrow(
      "The operator's API lacks this extension: POST /resettle-bet answered 404",
    );
    await expect(capabilities.withExtension("resettleBet", work)).rejects.toThrow("lacks this extension");
    expect(work).toHaveBeenCalledTimes(1);
    expect(capabilities.lacking(ADMIN)).toEqual({ resettleBet: "POST /resettle-bet answered 404" });
  });

  it("a 404 naming what was not found is that thing's absence, not the call's", async () => {
    const capabilities = fresh();
    const missingBet = new ApiError("Bet not found", 404);
    await expect(capabilities.withExtension("resettleBet", async () => Promise.reject(missingBet))).rejects.toBe(missingBet);
    capabilities.learnFromFailure("removeSlider", new ApiError("Slider image not found", 404));
    expect(capabilities.lacking(ADMIN)).toEqual({});
    // An unknown route's own words are the call's absence.
    capabilities.learnFromFailure("removeSlider", new ApiError("Route GET:/api/admin/b2c/remove-slider/1 not found", 404));
    expect(capabilities.lack("removeSlider")).toBe("GET /b2c/remove-slider/:id answered 404");
  });

  it("a spec call's 404, or an extension's other failures, teach nothing", () => {
    const capabilities = fresh();
    capabilities.learnFromFailure("settleBet", new ApiError("Not found", 404));
    capabilities.learnFromFailure("bonusLimits", new ApiError("Something went wrong", null));
    capabilities.learnFromFailure("bonusLimits", new ApiError("Forbidden", 403));
    expect(capabilities.lacking(ADMIN)).toEqual({});
  });

  it("a reading whose answers ignored a filter, or answered 20 a page when asked 500, marks those parameters", () => {
    const capabilities = fresh();
    capabilities.learnFromReading("pendingBets", { ignored: ["eventId"], pageSize: 20, total: 300 });
    expect(capabilities.lack("pendingBets", "pendingBets?eventId")).toBe("answered items that do not match eventId");
    expect(capabilities.lack("pendingBets", "pendingBets?marketId")).toBeNull();
    expect(capabilities.lack("pendingBets", "pendingBets?pageSize")).toBe("answered 20 a page when asked 500");
  });

  it("a short list proves nothing about pageSize, and a spec parameter is never marked", () => {
    const capabilities = fresh();
    capabilities.learnFromReading("pendingBets", { ignored: ["page"], pageSize: 12, total: 12 });
    expect(capabilities.lacking(ADMIN)).toEqual({});
  });

  it("tells the browser each missing call once, with the sentence the refusal says, and no query parameters", async () => {
    const capabilities = fresh();
    expect(capabilities.missingCalls()).toEqual({});
    capabilities.learnFromFailure("removeSlider", new ApiError("Not found", 404));
    capabilities.learnFromReading("pendingBets", { ignored: ["eventId"], pageSize: 20, total: 300 });
    expect(capabilities.missingCalls()).toEqual({
      removeSlider: "The operator's API lacks this extension: GET /b2c/remove-slider/:id answered 404",
    });
    await expect(capabilities.withExtension("removeSlider", async () => null)).rejects.toThrow(capabilities.missingCalls().removeSlider!);
  });

  it("is kept per API base URL", () => {
    const capabilities = createCapabilities((name) => (name === "bonusLimits" ? SPORTS : ADMIN));
    capabilities.learnFromFailure("bonusLimits", new ApiError("Not found", 404));
    expect(capabilities.lacking(SPORTS)).toEqual({ bonusLimits: "GET /b2c/bonus-limits answered 404" });
    expect(capabilities.lacking(ADMIN)).toEqual({});
  });

  it("knows a money call honours requestId only once the API refused a reused key; until then it is unsure (no)", async () => {
    const capabilities = fresh();
    await capabilities.withExtension("userDeposit", async () => ({ balance: 1, actorBalance: "unlimited" }));
    expect(capabilities.honoursRequestId("userDeposit")).toBe(false);
    await expect(
      capabilities.withExtension("userDeposit", async () => {
        throw new ApiError("requestId was already used for another request", 409);
      }),
    ).rejects.toThrow("already used");
    expect(capabilities.honoursRequestId("userDeposit")).toBe(true);
    expect(capabilities.honoursRequestId("userWithdraw")).toBe(true);
  });
});
