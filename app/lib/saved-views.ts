/**
 * The browser's side of saved views (issue 32): read a screen's views from the console's store
 * and save or delete one through /resources/views (app/lib/views.server.ts).
 */
import type { Outcome } from "./feedback";
import type { SavedView, ViewChange } from "./list-view";

export const VIEWS_ENDPOINT = "/resources/views";

/**
 * The views of each screen as last read on this page (a sign-out loads a new page, so they are
 * the signed-in operator's): a screen opened again applies its default at once, with no read.
 */
const known = new Map<string, SavedView[]>();

/** `screen`'s views as last read on this page, if they were. */
export const knownViews = (screen: string): readonly SavedView[] | undefined => known.get(screen);

/** The operator's views of `screen`; none when the store cannot be read (the screen works without). */
export async function fetchViews(screen: string): Promise<SavedView[]> {
  const response = await fetch(`${VIEWS_ENDPOINT}?${new URLSearchParams({ screen })}`, { headers: { Accept: "application/json" } }).catch(
    () => null,
  );
  if (!response?.ok) return [];
  const { views } = (await response.json()) as { views: SavedView[] };
  known.set(screen, views);
  return views;
}

export async function changeViews(change: ViewChange): Promise<Outcome> {
  const response = await fetch(VIEWS_ENDPOINT, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(change),
  }).catch(() => null);
  if (!response) return { ok: false, message: "The console did not answer" };
  return ((await response.json().catch(() => null)) as Outcome | null) ?? { ok: false, message: `The console answered ${response.status}` };
}
