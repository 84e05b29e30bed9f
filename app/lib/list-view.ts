/**
 * Saved views and the column chooser (issue 32, docs/ux.md "Views and columns"): a list screen's
 * view is its address's search params (filters, sort) plus `cols` (the visible column ids in
 * order) and `widths` (`id:ch` pairs). Pure, shared by the browser and the store's route: the
 * view's URL and stored forms, and applying a layout to a screen's columns.
 */
import { z } from "zod";
import { SCREENS, type ScreenId } from "./screens";

export const COLS_PARAM = "cols";
export const WIDTHS_PARAM = "widths";
/** Where one is in the list, not how it looks: a view never keeps these. */
const TRANSIENT_PARAMS = ["page", "open", "logs", "new"] as const;

export const VIEW_NAME_MAX = 40;
/** A view's search string; far above any screen's filters and a full `cols`/`widths`. */
export const VIEW_QUERY_MAX = 2000;
/** Views an operator keeps per screen. */
export const VIEWS_PER_SCREEN = 20;
/** A column's width, in characters of the console's one monospace font. */
export const COLUMN_CH = { min: 4, max: 80, step: 2 } as const;

/** Screens with the list kit's table: the only ones a view names. */
export const VIEW_SCREENS = (Object.keys(SCREENS) as ScreenId[]).filter((key) =>
  (SCREENS[key] as { scopes?: readonly string[] }).scopes?.includes("list"),
);

export const viewSchema = z.object({
  name: z.string().trim().min(1, "A view needs a name").max(VIEW_NAME_MAX, `At most ${VIEW_NAME_MAX} characters`),
  query: z.string().max(VIEW_QUERY_MAX, "Too long a view"),
  isDefault: z.boolean(),
});
export type SavedView = z.infer<typeof viewSchema>;

export const viewScreenSchema = z.enum(VIEW_SCREENS as [ScreenId, ...ScreenId[]], { message: "Not a list screen" });

/** What the views route takes (app/lib/views.server.ts): save (replacing one of that name) or delete. */
export const viewChangeSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("save"), screen: viewScreenSchema, view: viewSchema }),
  z.object({ intent: z.literal("delete"), screen: viewScreenSchema, name: viewSchema.shape.name }),
]);
export type ViewChange = z.infer<typeof viewChangeSchema>;

/** The screen's columns as the operator laid them out: `order` null keeps the screen's own. */
export type Layout = { order: readonly string[] | null; widths: Readonly<Record<string, number>> };
export const SCREEN_LAYOUT: Layout = { order: null, widths: {} };

const clampCh = (ch: number) => Math.max(COLUMN_CH.min, Math.min(COLUMN_CH.max, Math.round(ch)));

/** The address's filters alone (its layout params left out), in a stable order: two views of the same data compare equal. */
export function filtersOf(params: URLSearchParams): string {
  const filters = new URLSearchParams([...params].filter(([key]) => key !== COLS_PARAM && key !== WIDTHS_PARAM));
  filters.sort();
  return filters.toString();
}

/** A view as stored: the address's params without the transient ones. */
export function viewQueryOf(params: URLSearchParams): string {
  const kept = new URLSearchParams(params);
  for (const name of TRANSIENT_PARAMS) kept.delete(name);
  return kept.toString();
}

/** The layout an address names; ids are kept as given (applyLayout drops the unknown ones). */
export function layoutOf(params: URLSearchParams): Layout {
  const cols = params.get(COLS_PARAM);
  const widths: Record<string, number> = {};
  for (const pair of (params.get(WIDTHS_PARAM) ?? "").split(",")) {
    const [id, ch] = pair.split(":");
    if (id && ch && Number.isFinite(Number(ch))) widths[id] = clampCh(Number(ch));
  }
  return { order: cols === null ? null : cols.split(",").filter(Boolean), widths };
}

/** `params` with `layout` in place of the one they named. */
export function withLayout(params: URLSearchParams, layout: Layout): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(COLS_PARAM);
  next.delete(WIDTHS_PARAM);
  if (layout.order) next.set(COLS_PARAM, layout.order.join(","));
  const widths = Object.entries(layout.widths);
  if (widths.length > 0) next.set(WIDTHS_PARAM, widths.map(([id, ch]) => `${id}:${ch}`).join(","));
  return next;
}

/** Whether two layouts draw the same table. */
export const sameLayout = (a: Layout, b: Layout) =>
  withLayout(new URLSearchParams(), a).toString() === withLayout(new URLSearchParams(), b).toString();

/**
 * The columns to draw, in order, and the ids the layout names that the screen no longer has (a
 * column the API stopped sending): those are left out, and the screen says so.
 */
export function applyLayout<C extends { id: string }>(columns: readonly C[], layout: Layout): { shown: C[]; unknown: string[] } {
  if (!layout.order) return { shown: [...columns], unknown: Object.keys(layout.widths).filter((id) => !columns.some((c) => c.id === id)) };
  const byId = new Map(columns.map((column) => [column.id, column]));
  const named = [...layout.order, ...Object.keys(layout.widths)];
  return {
    shown: layout.order.flatMap((id) => byId.get(id) ?? []),
    unknown: [...new Set(named.filter((id) => !byId.has(id)))],
  };
}

/** One line of the column chooser. */
export type ChooserLine = { id: string; shown: boolean };

/** The chooser's lines: the shown columns in their order, then the hidden ones in the screen's. */
export function chooserLines(columns: readonly { id: string }[], layout: Layout): ChooserLine[] {
  const { shown } = applyLayout(columns, layout);
  const shownIds = new Set(shown.map((column) => column.id));
  return [
    ...shown.map(({ id }) => ({ id, shown: true })),
    ...columns.filter(({ id }) => !shownIds.has(id)).map(({ id }) => ({ id, shown: false })),
  ];
}

/** The layout the chooser's lines say, keeping the widths of columns the screen still has. */
export function layoutOfLines(lines: readonly ChooserLine[], widths: Layout["widths"]): Layout {
  const known = new Set(lines.map((line) => line.id));
  return {
    order: lines.filter((line) => line.shown).map((line) => line.id),
    widths: Object.fromEntries(Object.entries(widths).filter(([id]) => known.has(id))),
  };
}

/** Space: the line at `index` shown or hidden; the last one shown stays, so the table keeps a column. */
export function toggleLine(lines: readonly ChooserLine[], index: number): ChooserLine[] {
  const next = lines.map((line, i) => (i === index ? { ...line, shown: !line.shown } : line));
  return next.some((line) => line.shown) ? next : [...lines];
}

/** `J`/`K`: the line at `index` one place down (+1) or up (-1); the same lines at an end. */
export function moveLine(lines: readonly ChooserLine[], index: number, by: 1 | -1): ChooserLine[] {
  const to = index + by;
  if (to < 0 || to >= lines.length) return [...lines];
  const next = [...lines];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

/** `<`/`>`: a column narrower or wider by a step, from `current` characters (its drawn width). */
export const resized = (widths: Layout["widths"], id: string, current: number, by: 1 | -1): Record<string, number> => ({
  ...widths,
  [id]: clampCh(current + by * COLUMN_CH.step),
});
