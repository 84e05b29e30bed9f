/**
 * Screen switches within 100 ms (issue 20): a screen's data, kept in this tab for a minute, paints
 * at once when the operator comes back to the same address, and is read again from the server
 * once it has shown a moment (the shell asks for it, useScreenRefresh): a screen the operator only
 * passes through is not read again. On `g`, the kept screens used last whose data is getting old
 * are read ahead (the shell's ReadAhead), so the screens in use stay kept at a bounded cost; a
 * switch with nothing kept to paint waits for a read of its address under way, not another. At
 * the first idle moment after sign-in, the desks marked `readAhead` are read ahead the same way,
 * so their first visit paints from here too (or waits for that read, when it is still under way),
 * and is read again once shown: news may have come while the operator was idle (issue 35). News
 * that does come (a new request) makes every screen kept or being read owe a read after its paint.
 *
 * Only an address the operator is going to is answered from here: a reload of the address showing
 * (news from the platform, a poll) always reads the server; the other screens keep their data,
 * each read again once it shows. A change the operator makes (a form or action submitted) drops
 * every screen's kept data, which that change may have touched, and so does leaving the signed-in
 * shell.
 */
import { useFetcher, useFetchers, useLocation, useNavigation, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { screenThroughOutage } from "./outage";

const KEPT_MS = 60_000;
/** Data read this recently (read ahead on `g`) paints with no read owed after it. */
const FRESH_MS = 5_000;
/** On `g`, kept data older than this is read ahead: the screens in use stay within the minute. */
const READ_AHEAD_AFTER_MS = 20_000;
/** How long a screen painted from kept data shows before it is read again. */
const REFRESH_AFTER_MS = 300;
/** How many kept screens one `g` reads ahead. */
export const READ_AHEAD = 3;

/** `owesRead`: a read made while the operator was idle, which news may have overtaken since: it shows, then is read again. */
type Kept = { data: unknown; at: number; owesRead?: true };
const kept = new Map<string, Kept>();
/** Server reads under way, by address; `owesRead` as Kept's: a read made while the operator was idle, which news may overtake. */
const reading = new Map<string, { answer: Promise<unknown>; owesRead: boolean }>();
/** Addresses chosen to be read ahead whose loader has not been called yet (by their fetcher, or by a switch come first). */
const chosen = new Set<string>();
/** Addresses chosen for their first visit: read while the operator is idle, so read again once shown (a deposit may have come meanwhile). */
const firstVisits = new Set<string>();
/** Bumped when the kept data is dropped: a read that started before does not keep its answer. */
let generation = 0;
/** The address painted from `kept` whose server read the shell still owes. */
let owed: string | null = null;
/**
 * When the shell asked its refresh, which is the next reload within REFRESH_WAIT_MS: it may land on
 * the next screen already (the reload waits while a load is under way), which it reads all the same.
 * Later (it landed on a screen without data), a reload is news again.
 */
let refreshAsked: number | null = null;
const REFRESH_WAIT_MS = 2_000;

const addressOf = ({ pathname, search }: { pathname: string; search: string }) => `${pathname}${search}`;

/** Whether `address` is being read, or chosen to be read ahead: not to be chosen again. */
const readOrChosen = (address: string) => reading.has(address) || chosen.has(address);

/** The switch's own loader call, by its navigation (whose address it is): a later call in that navigation while it stands is a fetcher's. */
let switchCall: { navigation: object; signal: AbortSignal } | null = null;

/**
 * Whether this loader call is the operator's switch to `address`. Remix moves its navigation to the
 * address before it calls the loaders, and leaves it idle through a revalidation (news, a poll) and a
 * fetcher's load. In a navigation, the switch's loader is called first; a read-ahead fetcher loading
 * the same address beside it comes after (its ReadAhead mounted as the letter came, or reloaded by
 * the navigation), and is a fetcher's for as long as the switch's call stands. A revalidation during
 * the navigation aborts that call and calls the switch's loader again, in the same navigation.
 */
function isSwitch(address: string, request: Request): boolean {
  const { navigation } = window.__remixRouter.state;
  if (navigation.state === "idle" || addressOf(navigation.location) !== address) return false;
  if (switchCall?.navigation === navigation && !switchCall.signal.aborted) return false;
  switchCall = { navigation, signal: request.signal };
  return true;
}

function read(address: string, serverLoader: () => Promise<unknown>, owesRead = false): Promise<unknown> {
  const started = generation;
  const underWay = {
    owesRead,
    answer: serverLoader()
      .then((data) => {
        // Its owesRead as it stands when the answer comes: news may have come meanwhile (newsArrived).
        if (started === generation) kept.set(address, { data, at: Date.now(), ...(underWay.owesRead && { owesRead: true as const }) });
        return data;
      })
      .finally(() => {
        if (reading.get(address) === underWay) reading.delete(address);
      }),
  };
  reading.set(address, underWay);
  return underWay.answer;
}

/** A screen route's `clientLoader`. */
export async function screenClientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  const address = addressOf(new URL(request.url));
  // The first call for an address chosen to be read ahead is its fetcher's, or a switch's come first.
  const first = chosen.delete(address);
  const firstVisit = firstVisits.delete(address);
  // Remix moves the address only once the loaders answered.
  const showing = address === addressOf(window.location);
  if (!showing && !isSwitch(address, request)) return readAhead(address, serverLoader, first ? firstVisit : undefined);
  const hit = kept.get(address);
  const age = hit ? Date.now() - hit.at : Infinity;
  // Read this recently, and not while the operator was idle: shown with no read after it.
  const fresh = age < FRESH_MS && !hit?.owesRead;
  const underWay = reading.get(address);
  if (!showing) {
    if (hit && age < KEPT_MS) {
      owed = fresh ? null : address;
      return hit.data;
    }
    // What a read made while the operator was idle answers shows, then is read again, as when kept.
    owed = underWay?.owesRead ? address : null;
    if (underWay) return underWay.answer.catch(() => read(address, serverLoader));
  } else if (refreshAsked !== null && Date.now() - refreshAsked < REFRESH_WAIT_MS) {
    refreshAsked = null;
    // A read ahead under way, or one that answered since the paint, is the refresh.
    if (underWay) return underWay.answer.catch(() => read(address, serverLoader));
    if (hit && fresh) return hit.data;
  }
  return showing ? screenThroughOutage(address, () => read(address, serverLoader)) : read(address, serverLoader);
}

/**
 * A read-ahead fetcher's load (ReadAhead): its answer is kept for the switch, and a failure is the
 * switch's to show, never the fetcher's (Remix reports a fetcher's failure at the root: the console
 * would be replaced by the error page while out of reach). Its first load (`firstVisit` given: a
 * first visit's owes a read after its paint) reads. Loaded again while the fetcher is mounted (a
 * revalidation, or a navigation the screen's shouldRevalidate reloads it on), it reads only if its
 * read was aborted, keeping that read's standing; else what it read stays kept, read again once shown if need be.
 */
function readAhead(address: string, serverLoader: () => Promise<unknown>, firstVisit: boolean | undefined): Promise<unknown> {
  const underWay = reading.get(address);
  if (underWay) return underWay.answer.catch(() => read(address, serverLoader, firstVisit ?? underWay.owesRead)).catch(() => null);
  if (firstVisit === undefined) return Promise.resolve(kept.get(address)?.data ?? null);
  return read(address, serverLoader, firstVisit).catch(() => null);
}

/** Once `address` shows: if it was painted from kept data, reads it again from the server by `revalidate`. */
export function refreshOwed(address: string, revalidate: () => void): void {
  if (owed !== address) return;
  refreshAsked = Date.now();
  owed = null;
  revalidate();
}

/**
 * What a `g` reads ahead: the kept screens other than the one showing whose data is older than
 * READ_AHEAD_AFTER_MS (and still kept) and not being read, most recently read first, at most READ_AHEAD.
 */
export function readAheadFrom(showing: string, now = Date.now()): string[] {
  const more = [...kept]
    .filter(([address, { at }]) => address !== showing && now - at >= READ_AHEAD_AFTER_MS && now - at < KEPT_MS)
    .filter(([address]) => !readOrChosen(address))
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, READ_AHEAD)
    .map(([address]) => address);
  for (const address of more) chosen.add(address);
  return more;
}

/** After the shell first renders, how long it waits before the first idle moment readies the first visits (issue 35). */
export const FIRST_VISITS_AFTER_MS = 1_000;

/** Jobs shown in this page from their confirmation to their end (BulkRun): the first visits wait for them. */
let jobsShown = 0;

/** Marks a job shown in this page until the answer is called; calling it again changes nothing. */
export function jobShown(): () => void {
  jobsShown++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    jobsShown--;
  };
}

/**
 * At the first idle moment at least FIRST_VISITS_AFTER_MS from now while no job is shown in this
 * page (looking again every FIRST_VISITS_AFTER_MS while one is), runs `prepare` (loading the
 * screens' code), then `ready` with what it answered, again only while no job is shown: a job
 * confirmed while the code loaded puts `ready` off to the next idle moment after it. Reading ahead
 * beside a job's chunks slowed a settlement run begun just after sign-in by a third of a second (a
 * chunk's bets waited behind the desks' reads), and reads that fail there (its console gone)
 * reach no screen that could show it. Answers a cancel, after which neither runs.
 */
export function atIdleWithoutJobs<T>(prepare: () => Promise<T>, ready: (prepared: T) => void): () => void {
  const requestIdle = globalThis.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback) as unknown as number);
  const cancelIdle = globalThis.cancelIdleCallback ?? ((handle: number) => clearTimeout(handle));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  let cancelled = false;
  const whenIdleWithoutJobs = (then: () => void) => {
    timer = setTimeout(() => {
      idle = requestIdle(() => {
        idle = undefined;
        if (jobsShown > 0) whenIdleWithoutJobs(then);
        else then();
      });
    }, FIRST_VISITS_AFTER_MS);
  };
  whenIdleWithoutJobs(async () => {
    const prepared = await prepare();
    if (cancelled) return;
    if (jobsShown > 0) whenIdleWithoutJobs(() => ready(prepared));
    else ready(prepared);
  });
  return () => {
    cancelled = true;
    clearTimeout(timer);
    if (idle !== undefined) cancelIdle(idle);
  };
}

/** Of `addresses`, those with nothing kept and no read under way or chosen: chosen to be read ahead, for their first visit. */
export function firstVisitsFrom(addresses: readonly string[]): string[] {
  const more = addresses.filter((address) => !kept.has(address) && !readOrChosen(address));
  for (const address of more) {
    chosen.add(address);
    firstVisits.add(address);
  }
  return more;
}

/**
 * News from the platform (a new request): the shell reloads the screen showing, and every other
 * screen kept or being read may lack it, however fresh: each still paints at once, then is read again.
 */
export function newsArrived(): void {
  for (const entry of kept.values()) entry.owesRead = true;
  for (const underWay of reading.values()) underWay.owesRead = true;
}

/** A change the operator made, or leaving the signed-in shell (sign-out, another operator): nothing kept outlives it. */
export function forgetScreens(): void {
  generation++;
  kept.clear();
  reading.clear();
  chosen.clear();
  firstVisits.clear();
}

/** In the shell. */
export function useScreenRefresh(revalidate: () => void): void {
  const location = useLocation();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const changing = [navigation, ...fetchers].some(({ formMethod }) => formMethod !== undefined && formMethod.toUpperCase() !== "GET");
  useEffect(() => {
    if (changing) forgetScreens();
  }, [changing]);
  useEffect(() => {
    const address = addressOf(location);
    if (owed !== address) return;
    const timer = setTimeout(() => refreshOwed(address, revalidate), REFRESH_AFTER_MS);
    return () => clearTimeout(timer);
  }, [location, revalidate]);
  useEffect(() => forgetScreens, []);
}

/** Reads one address ahead through a fetcher (which calls the screen's clientLoader), then goes. */
export function ReadAhead({ address, onDone }: { address: string; onDone: (address: string) => void }) {
  const fetcher = useFetcher({ key: `read-ahead ${address}` });
  const started = useRef(false);
  useEffect(() => {
    void fetcher.load(address);
  }, []);
  useEffect(() => {
    if (fetcher.state !== "idle") started.current = true;
    else if (started.current) onDone(address);
  }, [fetcher.state]);
  return null;
}
