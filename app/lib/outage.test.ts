import { beforeEach, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "./constants";

const notifyError = vi.fn();
vi.mock("./feedback", () => ({ notifyError: (message: string) => notifyError(message) }));
const { isUnreachable, layoutThroughOutage, rememberShown, screenThroughOutage } = await import("./outage");

const unreachable = () => Promise.reject(new TypeError("Failed to fetch"));

beforeEach(() => {
  notifyError.mockClear();
  rememberShown({ layout: { balance: 10 }, screen: { address: "/users?page=2", data: { rows: 3 } } });
});

describe("a reload while the console is out of reach", () => {
  it("keeps what the layout and the screen at that address showed, and says so once until a reload succeeds", async () => {
    await expect(layoutThroughOutage(unreachable)).resolves.toEqual({ balance: 10 });
    await expect(screenThroughOutage("/users?page=2", unreachable)).resolves.toEqual({ rows: 3 });
    expect(notifyError.mock.calls).toEqual([[MESSAGES.consoleUnreachable]]);
    await expect(layoutThroughOutage(async () => ({ balance: 11 }))).resolves.toEqual({ balance: 11 });
    await layoutThroughOutage(unreachable);
    expect(notifyError).toHaveBeenCalledTimes(2);
  });

  it("fails as before for another address, nothing shown, or an error the console answered", async () => {
    await expect(screenThroughOutage("/users?page=3", unreachable)).rejects.toThrow("Failed to fetch");
    rememberShown({});
    await expect(layoutThroughOutage(unreachable)).rejects.toThrow("Failed to fetch");
    rememberShown({ layout: { balance: 10 } });
    await expect(layoutThroughOutage(() => Promise.reject(new Error("Unexpected Server Error")))).rejects.toThrow("Unexpected Server Error");
    expect(notifyError).not.toHaveBeenCalled();
  });

  it("tells a fetch that reached no server from a programming error", () => {
    expect(isUnreachable(new TypeError("Failed to fetch"))).toBe(true);
    expect(isUnreachable(new TypeError("NetworkError when attempting to fetch resource."))).toBe(true);
    expect(isUnreachable(new TypeError("Cannot read properties of undefined (reading 'rows')"))).toBe(false);
    expect(isUnreachable(new Error("Failed to fetch"))).toBe(false);
  });
});
