import { describe, expect, it } from "vitest";
import { ApiError } from "./api.server";
import { orRouteError } from "./route-errors.server";

async function thrownBy(error: unknown): Promise<Response> {
  try {
    await orRouteError(Promise.reject(error));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error("orRouteError did not throw");
}

describe("orRouteError (issue 15 item 8)", () => {
  it.each([
    [400, "user: Invalid id"],
    [401, "Invalid token"],
    [403, "Permission denied"],
    [404, "Not found"],
    [409, "Bet already settled"],
    [429, "Too many requests"],
  ])("keeps the upstream's %i and its message", async (status, message) => {
    const response = await thrownBy(new ApiError(message, status));
    expect(response.status).toBe(status);
    expect(await response.text()).toBe(message);
  });

  it.each([
    ["an unreachable upstream or a timeout", null],
    ["an upstream 500", 500],
    ["an upstream 503", 503],
    ["an unreadable success", 200],
  ])("answers 502 for %s", async (_case, status) => {
    expect((await thrownBy(new ApiError("Something went wrong", status))).status).toBe(502);
  });

  it("lets anything but an upstream refusal through untouched", async () => {
    const bug = new TypeError("a bug");
    await expect(orRouteError(Promise.reject(bug))).rejects.toBe(bug);
  });

  it("answers the work's value", async () => {
    await expect(orRouteError(Promise.resolve(7))).resolves.toBe(7);
  });
});
