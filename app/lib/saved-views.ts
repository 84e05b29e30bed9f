/**
 * The browser's side of saved views (issue 32): read a screen's views from the console's store
 * and save or delete one through /resources/views (app/lib/views.server.ts).
 */
import type { Outcome } from "./feedback";
import type { SavedView, ViewChange } from "./list-view";

export const VIEWS_ENDPOINT = "/resources/views";

/** The operator's views of `screen`; none when the store cannot be read (the screen works without). */
export async function fetchViews(screen: string): Promise<SavedView[]> {
  const response = await fetch(`${VIEWS_ENDPOINT}?${new URLSearchParams({ screen })}`, { headers: { Accept: "application/json" } }).catch(
    () => null,
  );
  if (!response?.ok) return [];
  return ((await response.json()) as { views: SavedView[] }).views;
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
