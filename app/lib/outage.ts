/**
 * The console out of reach (a restart, a deploy, a dropped network; docs/ux.md "The console out
 * of reach"): a reload of what shows keeps what was last read rather than replace the console with
 * an error page, so a job in progress carries on (its own calls report their failures item by item)
 * and the operator is told once per outage. A switch to a screen not read yet still fails, plainly.
 */
import { useLocation, useMatches } from "@remix-run/react";
import { useEffect } from "react";
import { MESSAGES } from "./constants";
import { notifyError } from "./feedback";

/** A fetch that reached no server, in Chromium's, Firefox's and Safari's words. */
const NO_SERVER = /failed to fetch|networkerror|load failed/i;

export const isUnreachable = (error: unknown): boolean => error instanceof TypeError && NO_SERVER.test(error.message);

/** The signed-in layout's route (app/routes/_app.tsx); the screen showing is the last match below it. */
const LAYOUT_ROUTE = "routes/_app";

/** What shows: the layout's data, and the screen's with its address. */
type Shown = { layout?: unknown; screen?: { address: string; data: unknown } };
let shown: Shown = {};
let told = false;

export function rememberShown(now: Shown): void {
  shown = now;
}

/** In the layout: remembers what the layout and the screen showing were last given. */
export function useRememberShown(): void {
  const matches = useMatches();
  const { pathname, search } = useLocation();
  useEffect(() => {
    const screen = matches.at(-1);
    rememberShown({
      layout: matches.find((match) => match.id === LAYOUT_ROUTE)?.data,
      screen: screen && screen.id !== LAYOUT_ROUTE ? { address: `${pathname}${search}`, data: screen.data } : undefined,
    });
  }, [matches, pathname, search]);
  // Leaving the shell (a sign-out) forgets it: the next operator's first load never falls back on it.
  useEffect(() => () => rememberShown({}), []);
}

async function orShown<T>(load: () => Promise<T>, kept: () => unknown): Promise<T> {
  try {
    const data = await load();
    told = false;
    return data;
  } catch (error) {
    const last = kept();
    if (!isUnreachable(error) || last === undefined) throw error;
    if (!told) notifyError(MESSAGES.consoleUnreachable);
    told = true;
    return last as T;
  }
}

/** The layout's reload: what it showed last when the console cannot be reached. */
export const layoutThroughOutage = <T>(load: () => Promise<T>): Promise<T> => orShown(load, () => shown.layout);

/** A reload of the screen showing at `address`: what it showed last when the console cannot be reached. */
export const screenThroughOutage = <T>(address: string, load: () => Promise<T>): Promise<T> =>
  orShown(load, () => (shown.screen?.address === address ? shown.screen.data : undefined));
