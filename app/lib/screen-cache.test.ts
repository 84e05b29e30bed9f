import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  atIdleWithoutJobs,
  FIRST_VISITS_AFTER_MS,
  firstVisitsFrom,
  forgetScreens,
  jobShown,
  newsArrived,
  READ_AHEAD,
  readAheadFrom,
  refreshOwed,
  screenClientLoader,
} from "./screen-cache";

const ORIGIN = "http://console.test";
let showing = "/users";
let serverReads: string[] = [];
type Navigation = { state: "loading"; location: URL };
/** Remix's navigation while a loader is called: null when it is idle. Remix keeps one object per navigation. */
let navigation: Navigation | null = null;
const navigationTo = (address: string): Navigation => ({ state: "loading", location: new URL(`${ORIGIN}${address}`) });

type Answer = () => Promise<unknown>;
/** The loader called for `address` while Remix navigates to `navigatingTo` (none): in the navigation under way (`navigating`), else in one of its own. */
const call = (address: string, answer: Answer, navigatingTo: string | null, signal?: AbortSignal) => {
  const under = navigation;
  navigation = navigatingTo === null ? null : under && under.location.pathname + under.location.search === navigatingTo ? under : navigationTo(navigatingTo);
  try {
    return screenClientLoader({
      request: new Request(`${ORIGIN}${address}`, { signal }),
      params: {},
      serverLoader: () => {
        serverReads.push(address);
        return answer();
      },
    } as unknown as Parameters<typeof screenClientLoader>[0]);
  } finally {
    navigation = under;
  }
};
const serverAnswer = (address: string) => async () => ({ address, read: serverReads.length });

/** A screen's clientLoader called as Remix does for a switch to `address` (a reload of it, when it shows), while `showing` is on screen. */
const load = (address: string, answer: Answer = serverAnswer(address), signal?: AbortSignal) => call(address, answer, address, signal);
/** A screen's clientLoader called by a read-ahead fetcher of `address` (ReadAhead), while Remix's navigation goes to `navigatingTo` (none). */
const fetchAhead = (address: string, answer: Answer = serverAnswer(address), navigatingTo: string | null = null) => call(address, answer, navigatingTo);
/** Runs `calls` in one navigation to `address`, as Remix makes its loaders' and its fetchers' calls within it. */
async function navigating(address: string, calls: () => Promise<void>) {
  navigation = navigationTo(address);
  try {
    await calls();
  } finally {
    navigation = null;
  }
}

/** Lets reads that already answered finish keeping their data. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

/** Past the few seconds in which data read ahead counts as fresh. */
const later = () => vi.advanceTimersByTime(5_000);
/** /deposits, then /users read; /deposits shown again from what was kept, and its refresh asked. */
async function refreshAskedOnDeposits() {
  show("/users");
  await load("/deposits");
  show("/deposits");
  await load("/users");
  show("/users");
  later();
  await load("/deposits");
  show("/deposits");
  refreshOwed("/deposits", () => {});
}

/** Shows `address` and asks its owed refresh, which must be asked once; answers what the revalidation then loads. */
async function readAgainOnceShown(address: string) {
  show(address);
  const revalidate = vi.fn();
  refreshOwed(address, revalidate);
  expect(revalidate).toHaveBeenCalledOnce();
  return load(address);
}

/** Past the age at which kept data is read ahead on `g`. */
const older = () => vi.advanceTimersByTime(20_000);

const show = (address: string) => {
  showing = address;
};

beforeEach(() => {
  vi.stubGlobal("window", {
    __remixRouter: {
      state: {
        get navigation() {
          return navigation ?? { state: "idle" };
        },
      },
    },
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
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("screen cache", () => {
  it("paints a screen seen before from what it kept, then owes one server read of it", async () => {
    show("/users");
    const first = await load("/deposits");
    show("/deposits");
    await load("/users");
    show("/users");
    later();
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
    await refreshAskedOnDeposits(); // busy: the reload waits
    const read = await load("/withdraws");
    show("/withdraws");
    // The waited reload: /withdraws was read just now, which stands for it; a later one reads again.
    expect(await load("/withdraws")).toBe(read);
    await load("/users");
    expect(serverReads).toEqual(["/deposits", "/users", "/withdraws"]);
    later();
    await load("/withdraws");
    expect(serverReads).toEqual(["/deposits", "/users", "/withdraws", "/withdraws"]);
  });

  it("treats another search as another address", async () => {
    show("/users");
    await load("/deposits");
    await load("/deposits?status=1");
    expect(serverReads).toEqual(["/deposits", "/deposits?status=1"]);
  });

  it("reads the server on a reload of the screen showing, and keeps the other screens", async () => {
    show("/users");
    const kept = await load("/deposits");
    show("/deposits");
    await load("/users");
    show("/users");
    await load("/users"); // the platform's news, a poll
    expect(await load("/deposits")).toBe(kept);
    expect(serverReads).toEqual(["/deposits", "/users", "/users"]);
  });

  it("keeps a screen a minute at most", async () => {
    show("/users");
    await load("/deposits");
    vi.advanceTimersByTime(60_000);
    await load("/deposits");
    expect(serverReads).toEqual(["/deposits", "/deposits"]);
  });

  it("forgets everything on a change the operator makes (useScreenRefresh) and when the shell goes", async () => {
    show("/users");
    await load("/deposits");
    forgetScreens();
    await load("/deposits");
    expect(serverReads).toEqual(["/deposits", "/deposits"]);
  });

  it("on g, reads ahead the kept screens used last whose data is getting old, not the one showing, each once", async () => {
    show("/");
    for (const address of ["/a", "/b", "/c", "/d", "/e"]) {
      await load(address);
      vi.advanceTimersByTime(4_000);
    }
    show("/e");
    // Read 20, 16, 12, 8 and 4 s ago.
    expect(readAheadFrom("/e")).toEqual(["/a"]);
    vi.advanceTimersByTime(12_000);
    expect(READ_AHEAD).toBe(3);
    expect(readAheadFrom("/e")).toEqual(["/d", "/c", "/b"]);
    expect(readAheadFrom("/e")).toEqual([]);
  });

  it("reads ahead a first visit only where nothing is kept or read, once; its switch paints the read's answer, then reads it again", async () => {
    show("/");
    await load("/withdraws");
    const chosen = firstVisitsFrom(["/deposits", "/withdraws", "/pending-sport-bets"]);
    expect(chosen).toEqual(["/deposits", "/pending-sport-bets"]);
    expect(firstVisitsFrom(["/deposits", "/pending-sport-bets"])).toEqual([]);
    const read = await fetchAhead("/deposits");
    await settle();
    expect(await load("/deposits")).toBe(read);
    // Read while the operator was idle, however recently: a deposit may have come since.
    expect(await readAgainOnceShown("/deposits")).toEqual({ address: "/deposits", read: 3 });
    expect(serverReads).toEqual(["/withdraws", "/deposits", "/deposits"]);
  });

  it("a screen read ahead paints what the read answered, with no read owed after it", async () => {
    show("/users");
    await load("/deposits");
    show("/deposits");
    older();
    expect(readAheadFrom("/deposits")).toEqual([]); // only kept screens other than the one showing
    show("/users");
    expect(readAheadFrom("/users")).toEqual(["/deposits"]);
    const read = await fetchAhead("/deposits");
    await settle();
    const revalidate = vi.fn();
    expect(await load("/deposits")).toBe(read); // the switch
    expect(read).toEqual({ address: "/deposits", read: 2 });
    show("/deposits");
    refreshOwed("/deposits", revalidate);
    expect(revalidate).not.toHaveBeenCalled();
    expect(serverReads).toEqual(["/deposits", "/deposits"]);
  });

  it("a switch paints what it kept while a read ahead is under way, whose answer is then the refresh", async () => {
    show("/users");
    const first = await load("/deposits");
    older();
    let answer!: (value: unknown) => void;
    expect(readAheadFrom("/users")).toEqual(["/deposits"]);
    void fetchAhead("/deposits", () => new Promise((resolve) => (answer = resolve)));
    expect(await load("/deposits")).toBe(first);
    show("/deposits");
    const revalidate = vi.fn();
    refreshOwed("/deposits", revalidate);
    expect(revalidate).toHaveBeenCalledOnce();
    const refreshed = load("/deposits");
    answer({ fresh: true });
    expect(await refreshed).toEqual({ fresh: true });
    expect(serverReads).toEqual(["/deposits", "/deposits"]);
  });

  it("a switch with nothing kept waits for a read of its address under way", async () => {
    show("/users");
    await load("/deposits");
    vi.advanceTimersByTime(60_000);
    let answer!: (value: unknown) => void;
    const first = load("/deposits", () => new Promise((resolve) => (answer = resolve))); // `g d`, its read under way
    const again = load("/deposits"); // `g d` again before it answered
    answer({ fresh: true });
    expect(await again).toEqual({ fresh: true });
    expect(await first).toEqual({ fresh: true });
    expect(serverReads).toEqual(["/deposits", "/deposits"]);
  });

  it("a first visit's switch that waits for its idle read under way paints its answer, then reads it again", async () => {
    show("/");
    firstVisitsFrom(["/deposits"]);
    let answer!: (value: unknown) => void;
    const ahead = fetchAhead("/deposits", () => new Promise((resolve) => (answer = resolve)));
    // A deposit requested now may miss the read under way: the switch waits for it, and owes another.
    const switched = load("/deposits");
    answer({ before: "the deposit" });
    expect(await switched).toEqual({ before: "the deposit" });
    await ahead;
    expect(await readAgainOnceShown("/deposits")).toEqual({ address: "/deposits", read: 2 });
    expect(serverReads).toEqual(["/deposits", "/deposits"]);
  });

  it("news makes a screen kept, however fresh, paint what it kept, then be read again", async () => {
    show("/users");
    const first = await load("/deposits"); // read ahead just now: fresh
    newsArrived(); // a deposit requested after that read
    expect(await load("/deposits")).toBe(first);
    expect(await readAgainOnceShown("/deposits")).toEqual({ address: "/deposits", read: 2 });
    expect(serverReads).toEqual(["/deposits", "/deposits"]);
  });

  it("news during a read under way makes its answer owe a read after its paint", async () => {
    show("/users");
    let answer!: (value: unknown) => void;
    const underWay = load("/deposits", () => new Promise((resolve) => (answer = resolve)));
    newsArrived();
    answer({ before: "the news" });
    await underWay;
    await settle();
    expect(await load("/deposits")).toEqual({ before: "the news" });
    expect(await readAgainOnceShown("/deposits")).toEqual({ address: "/deposits", read: 2 });
  });

  it("a read ahead that failed changes nothing: the switch paints what was kept", async () => {
    show("/users");
    const first = await load("/deposits");
    older();
    readAheadFrom("/users");
    expect(await fetchAhead("/deposits", async () => Promise.reject(new TypeError("Failed to fetch")))).toBeNull();
    await settle();
    expect(await load("/deposits")).toBe(first);
    expect(serverReads).toEqual(["/deposits", "/deposits"]);
  });

  it("a read under way when the kept data is dropped does not keep its answer", async () => {
    show("/users");
    let answer!: (value: unknown) => void;
    const slow = load("/deposits", () => new Promise((resolve) => (answer = resolve)));
    forgetScreens(); // a change was made
    answer({ before: "the change" });
    await slow;
    await load("/deposits");
    expect(serverReads).toEqual(["/deposits", "/deposits"]);
  });

  it("a switch chosen on g but switched to before its fetcher started reads as a switch", async () => {
    show("/users");
    const first = await load("/deposits");
    older();
    expect(readAheadFrom("/users")).toEqual(["/deposits"]);
    expect(readAheadFrom("/users")).toEqual([]); // chosen once
    expect(await load("/deposits")).toBe(first); // the letter came first: kept data, no read
    expect(serverReads).toEqual(["/deposits"]);
  });

  it("a read ahead's fetcher that calls once its switch painted reads what shows, which is the switch's refresh", async () => {
    show("/users");
    const first = await load("/deposits");
    older();
    readAheadFrom("/users");
    expect(await load("/deposits")).toBe(first);
    show("/deposits");
    const read = await fetchAhead("/deposits");
    expect(await readAgainOnceShown("/deposits")).toBe(read);
    expect(serverReads).toEqual(["/deposits", "/deposits"]);
  });

  it("a read ahead's fetcher loaded again by a revalidation, the console out of reach, reads nothing and fails quietly; the switch fails plainly", async () => {
    show("/");
    firstVisitsFrom(["/deposits"]);
    const unreachable = async () => Promise.reject(new TypeError("Failed to fetch"));
    expect(await fetchAhead("/deposits", unreachable)).toBeNull();
    // Its fetcher mounted a moment more: news (or the job's end) revalidates it, which reads nothing.
    expect(await fetchAhead("/deposits", unreachable)).toBeNull();
    await settle();
    await expect(load("/deposits", unreachable)).rejects.toThrow("Failed to fetch"); // the switch says so, plainly
    expect(serverReads).toEqual(["/deposits", "/deposits"]);
  });

  it("a read ahead's fetcher loaded again once its read answered reads nothing: what it read stays kept", async () => {
    show("/");
    firstVisitsFrom(["/deposits"]);
    const read = await fetchAhead("/deposits");
    await settle();
    // A switch elsewhere whose screen's shouldRevalidate reloads the fetchers still mounted.
    expect(await fetchAhead("/deposits", serverAnswer("/deposits"), "/users")).toBe(read);
    expect(await load("/deposits")).toBe(read);
    expect(serverReads).toEqual(["/deposits"]);
  });

  it("a first visit's read aborted and loaded again by a revalidation still owes a read after the switch's paint", async () => {
    show("/");
    firstVisitsFrom(["/deposits"]);
    let abort!: (reason: unknown) => void;
    const aborted = fetchAhead("/deposits", () => new Promise((_, reject) => (abort = reject)));
    // The revalidation calls the loader again, then aborts the load in flight.
    const again = fetchAhead("/deposits");
    abort(new DOMException("aborted", "AbortError"));
    expect(await aborted).toBeNull(); // Remix drops an aborted load's answer
    expect(await again).toEqual({ address: "/deposits", read: 2 });
    await settle();
    // A deposit requested since, whose news did not reach this tab: the switch paints, then reads again.
    expect(await load("/deposits")).toEqual({ address: "/deposits", read: 2 });
    expect(await readAgainOnceShown("/deposits")).toEqual({ address: "/deposits", read: 3 });
  });

  it("a read ahead's fetcher loaded again in the revalidation that news makes of a switch leaves the switch's refresh owed", async () => {
    show("/");
    firstVisitsFrom(["/deposits", "/pending-sport-bets"]);
    await fetchAhead("/deposits");
    await fetchAhead("/pending-sport-bets");
    await settle();
    newsArrived(); // a deposit requested after those reads
    // Its reload comes while `g d` is under way: the switch's loader is called again, and the fetcher still mounted is too.
    expect(await load("/deposits")).toEqual({ address: "/deposits", read: 1 });
    await fetchAhead("/pending-sport-bets", serverAnswer("/pending-sport-bets"), "/deposits");
    expect(await readAgainOnceShown("/deposits")).toEqual({ address: "/deposits", read: 3 });
  });

  it("a read ahead's fetcher that loads beside the switch to its address, the console out of reach, fails quietly; the switch fails plainly", async () => {
    show("/");
    firstVisitsFrom(["/deposits"]);
    const unreachable = async () => Promise.reject(new TypeError("Failed to fetch"));
    // `g d` came before the idle moment's ReadAhead started its fetcher: the switch's loader is called first.
    await navigating("/deposits", async () => {
      const switched = load("/deposits", unreachable);
      const fetched = fetchAhead("/deposits", unreachable, "/deposits");
      await expect(switched).rejects.toThrow("Failed to fetch");
      expect(await fetched).toBeNull(); // Remix would report a fetcher's failure at the root: the error page
    });
    expect(serverReads).toEqual(["/deposits", "/deposits"]);
  });

  it("a switch whose loader a revalidation calls again in the same navigation is still the switch", async () => {
    show("/users");
    const unreachable = async () => Promise.reject(new TypeError("Failed to fetch"));
    await navigating("/deposits", async () => {
      const interrupted = new AbortController();
      const first = load("/deposits", () => new Promise((_, reject) => interrupted.signal.addEventListener("abort", () => reject(interrupted.signal.reason))), interrupted.signal);
      // News comes while `g d` is under way: Remix aborts the switch's load and calls its loader again.
      interrupted.abort();
      await expect(load("/deposits", unreachable)).rejects.toThrow("Failed to fetch"); // plainly, not as a fetcher's null
      await expect(first).rejects.toThrow();
    });
  });

  it("a refresh that found no screen to reload is forgotten: a later reload is news, read from the server", async () => {
    await refreshAskedOnDeposits(); // busy, then landed on a screen without data
    await load("/withdraws");
    show("/withdraws");
    vi.advanceTimersByTime(2_000);
    await load("/withdraws"); // news, 2 s after /withdraws was read
    expect(serverReads).toEqual(["/deposits", "/users", "/withdraws", "/withdraws"]);
  });
});

describe("the first visits' idle moment", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  /** The screens' code loading: it answers when `load` is called. */
  function codeLoading() {
    let load!: (loaded: string[]) => void;
    const prepare = vi.fn(() => new Promise<string[]>((resolve) => (load = resolve)));
    return { prepare, load: (loaded: string[]) => load(loaded) };
  }

  it("comes once FIRST_VISITS_AFTER_MS has passed with no job shown, and waits while one is, to its end", async () => {
    const ready = vi.fn();
    const ended = jobShown();
    atIdleWithoutJobs(async () => ["/deposits"], ready);
    await vi.advanceTimersByTimeAsync(FIRST_VISITS_AFTER_MS * 5);
    expect(ready).not.toHaveBeenCalled();
    ended();
    ended();
    await vi.advanceTimersByTimeAsync(FIRST_VISITS_AFTER_MS * 2);
    expect(ready).toHaveBeenCalledExactlyOnceWith(["/deposits"]);
  });

  it("reads nothing while a job confirmed as the code loaded is shown, then reads at the next idle moment after it", async () => {
    const { prepare, load } = codeLoading();
    const ready = vi.fn();
    atIdleWithoutJobs(prepare, ready);
    await vi.advanceTimersByTimeAsync(FIRST_VISITS_AFTER_MS * 2);
    expect(prepare).toHaveBeenCalledOnce();
    const ended = jobShown(); // `y` on a settlement while the screens' code still loads
    load(["/deposits"]);
    await vi.advanceTimersByTimeAsync(FIRST_VISITS_AFTER_MS * 5);
    expect(ready).not.toHaveBeenCalled();
    ended();
    await vi.advanceTimersByTimeAsync(FIRST_VISITS_AFTER_MS * 2);
    expect(ready).toHaveBeenCalledExactlyOnceWith(["/deposits"]);
    expect(prepare).toHaveBeenCalledOnce();
  });

  it("never comes once cancelled, before the code loads or while it does", async () => {
    const ready = vi.fn();
    atIdleWithoutJobs(async () => [], ready)();
    const { prepare, load } = codeLoading();
    const cancel = atIdleWithoutJobs(prepare, ready);
    await vi.advanceTimersByTimeAsync(FIRST_VISITS_AFTER_MS * 2);
    cancel(); // the shell left while the code loaded
    load(["/deposits"]);
    await vi.advanceTimersByTimeAsync(FIRST_VISITS_AFTER_MS * 3);
    expect(prepare).toHaveBeenCalledOnce();
    expect(ready).not.toHaveBeenCalled();
  });
});
