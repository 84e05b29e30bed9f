import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { forgetScreens, refreshOwed, screenClientLoader } from "./screen-cache";

const ORIGIN = "http://console.test";
let showing = "/users";
let serverReads: string[] = [];

/** A screen's clientLoader called as Remix does, for `address`, while `showing` is on screen. */
const load = (address: string) =>
  screenClientLoader({
    request: new Request(`${ORIGIN}${address}`),
    params: {},
    serverLoader: async () => {
      serverReads.push(address);
      return { address, read: serverReads.length };
    },
  } as unknown as Parameters<typeof screenClientLoader>[0]);

const show = (address: string) => {
  showing = address;
};

beforeEach(() => {
  vi.stubGlobal("window", {
    location: {
      get pathname() {
        return new URL(`${ORIGIN}${showing}`).pathname;
      },
      get search() {
        return new URL(`${ORIGIN}${showing}`).search;
      },
    },
  });
  serverReads = [];
  forgetScreens();
});
afterEach(() => vi.unstubAllGlobals());

describe("screen cache", () => {
  it("paints a screen seen before from what it kept, then owes one server read of it", async () => {
    show("/users");
    const first = await load("/deposits");
    show("/deposits");
    await load("/users");
    show("/users");
    expect(await load("/deposits")).toBe(first);
    expect(serverReads).toEqual(["/deposits", "/users"]);

    const revalidate = vi.fn();
    show("/deposits");
    refreshOwed("/deposits", revalidate);
    expect(revalidate).toHaveBeenCalledOnce();
    // The revalidation that follows reads the server and keeps the other screens.
    expect(await load("/deposits")).toEqual({ address: "/deposits", read: 3 });
    refreshOwed("/deposits", revalidate);
    expect(revalidate).toHaveBeenCalledOnce();
    show("/deposits");
    await load("/users");
    expect(serverReads).toEqual(["/deposits", "/users", "/deposits"]);
  });

  it("takes the refresh for the next screen's reload when it waited past a switch, and keeps the others", async () => {
    show("/users");
    await load("/deposits");
    show("/deposits");
    await load("/users");
    show("/users");
    await load("/deposits");
    show("/deposits");
    refreshOwed("/deposits", () => {}); // busy: the reload waits
    await load("/withdraws");
    show("/withdraws");
    await load("/withdraws"); // the waited reload
    await load("/users");
    expect(serverReads).toEqual(["/deposits", "/users", "/withdraws", "/withdraws"]);
  });

  it("treats another search as another address", async () => {
    show("/users");
    await load("/deposits");
    await load("/deposits?status=1");
    expect(serverReads).toEqual(["/deposits", "/deposits?status=1"]);
  });

  it("reads the server on a reload of the screen showing, and forgets every other screen", async () => {
    show("/users");
    await load("/deposits");
    show("/deposits");
    await load("/users");
    show("/users");
    await load("/users"); // an action's or the platform's news' reload
    await load("/deposits");
    expect(serverReads).toEqual(["/deposits", "/users", "/users", "/deposits"]);
  });

  it("keeps a screen a minute at most", async () => {
    vi.useFakeTimers();
    try {
      show("/users");
      await load("/deposits");
      vi.advanceTimersByTime(60_000);
      await load("/deposits");
      expect(serverReads).toEqual(["/deposits", "/deposits"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("forgets everything when the shell goes", async () => {
    show("/users");
    await load("/deposits");
    forgetScreens();
    await load("/deposits");
    expect(serverReads).toEqual(["/deposits", "/deposits"]);
  });
});
