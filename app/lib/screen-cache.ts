/**
 * Screen switches within 100 ms (issue 20): a screen's data, kept in this tab for a minute, paints
 * at once when the operator comes back to the same address, and is read again from the server
 * straight after (the shell asks for it, useScreenRefresh). Only an address the operator is going
 * to is answered from here: a reload of the address showing (after a change the operator made,
 * news from the platform) always reads the server, and drops every other screen's kept data,
 * which that change may also have touched. Leaving the signed-in shell forgets everything.
 */
import { useLocation, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useEffect } from "react";

const KEPT_MS = 60_000;
const kept = new Map<string, { data: unknown; at: number }>();
/** The address painted from `kept` whose server read the shell still owes. */
let owed: string | null = null;
/**
 * The shell's refresh is the next reload: it refreshes, it does not invalidate. It may land on the
 * next screen already (the reload waits while a load is under way), which it reads all the same.
 */
let refreshing = false;

const addressOf = ({ pathname, search }: { pathname: string; search: string }) => `${pathname}${search}`;

/** A screen route's `clientLoader`. */
export async function screenClientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  const address = addressOf(new URL(request.url));
  const hit = kept.get(address);
  // Remix moves the address only once the loaders answered, so another address is a switch.
  if (address !== addressOf(window.location)) {
    if (hit && Date.now() - hit.at < KEPT_MS) {
      owed = address;
      return hit.data;
    }
  } else if (refreshing) {
    refreshing = false;
  } else {
    kept.clear();
  }
  const data = await serverLoader();
  kept.set(address, { data, at: Date.now() });
  return data;
}

/** Once `address` shows: if it was painted from kept data, reads it again from the server by `revalidate`. */
export function refreshOwed(address: string, revalidate: () => void): void {
  if (owed !== address) return;
  refreshing = true;
  owed = null;
  revalidate();
}

/** Leaving the signed-in shell (sign-out, another operator): nothing kept outlives it. */
export const forgetScreens = (): void => kept.clear();

/** In the shell. */
export function useScreenRefresh(revalidate: () => void): void {
  const location = useLocation();
  useEffect(() => refreshOwed(addressOf(location), revalidate), [location, revalidate]);
  useEffect(() => forgetScreens, []);
}
