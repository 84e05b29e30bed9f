/**
 * A table's view (issue 32, docs/ux.md "Views and columns"): the columns the operator shows, in
 * their order and widths, kept in the address (`cols`, `widths`) beside the screen's filters; the
 * `V` views menu and `C` column chooser; and the default view, applied when the screen opens with
 * nothing in its address.
 */
import { useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { announce, notifyNotice } from "../../lib/feedback";
import {
  applyLayout,
  COLS_PARAM,
  filtersOf,
  layoutOf,
  sameLayout,
  viewQueryOf,
  WIDTHS_PARAM,
  withLayout,
  type Layout,
  type SavedView,
  type ViewChange,
} from "../../lib/list-view";
import { changeViews, fetchViews, knownViews } from "../../lib/saved-views";
import { screenAt } from "../../lib/screens";
import { useScreenCommands } from "./shell-context";

export type TableLayer = "views" | "columns" | null;

export function useTableView<C extends { id: string }>(columns: readonly C[]) {
  const location = useLocation();
  const navigate = useNavigate();
  const screen = screenAt(location.pathname)?.id;
  // A screen opened with nothing in its address starts in its default view's layout when this page knows it.
  const [layout, setLayout] = useState<Layout>(() =>
    layoutOf(new URLSearchParams((!location.search && screen && knownViews(screen)?.find((view) => view.isDefault)?.query) || location.search)),
  );
  const [layer, setLayer] = useState<TableLayer>(null);
  const [views, setViews] = useState<SavedView[]>([]);

  // An address naming a layout sets it; one without (a screen's own page and sort links know only
  // their filters) keeps the layout showing.
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has(COLS_PARAM) && !params.has(WIDTHS_PARAM)) return;
    const named = layoutOf(params);
    setLayout((current) => (sameLayout(current, named) ? current : named));
  }, [location.search]);

  // The address always says the layout showing, so a copied link shares it. Only the history entry
  // is rewritten: the loaders need no new answer for columns.
  useEffect(() => {
    const now = new URLSearchParams(window.location.search);
    const wanted = withLayout(now, layout);
    if (wanted.toString() === now.toString()) return;
    const search = wanted.toString();
    window.history.replaceState(window.history.state, "", `${window.location.pathname}${search ? `?${search}` : ""}`);
  }, [layout, location.search]);

  const { shown, unknown } = useMemo(() => applyLayout(columns, layout), [columns, layout]);
  const unknownKey = unknown.join(",");
  useEffect(() => {
    if (unknownKey) notifyNotice(`Not sent any more, left out of this view: ${unknownKey.split(",").join(", ")}`);
  }, [unknownKey]);

  // The default view: on opening the screen with nothing in its address.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !screen) return;
    opened.current = true;
    if (location.search) return;
    const take = (found: readonly SavedView[]) => {
      setViews([...found]);
      const chosen = found.find((view) => view.isDefault);
      if (chosen && window.location.pathname === location.pathname && !window.location.search) apply(chosen);
    };
    const known = knownViews(screen);
    if (known) take(known);
    else void fetchViews(screen).then(take);
  }, [screen]);

  const apply = (view: SavedView) => {
    const params = new URLSearchParams(view.query);
    setLayout(layoutOf(params));
    // Columns alone need no new data (the layout effect writes them into the address); other filters do.
    if (filtersOf(params) !== filtersOf(new URLSearchParams(window.location.search))) navigate(`${location.pathname}?${params}`, { replace: true });
  };
  const open = (next: Exclude<TableLayer, null>) => {
    if (!screen || layer) return false;
    setLayer(next);
    if (next === "views") void fetchViews(screen).then(setViews);
  };
  useScreenCommands({ "list.views": () => open("views"), "list.columns": () => open("columns") });
  /** A save or delete, said on the status line, then the views read again; whether the store took it. */
  const change = async (viewChange: ViewChange) => {
    const outcome = await changeViews(viewChange);
    announce(outcome);
    if (outcome.ok) setViews(await fetchViews(viewChange.screen));
    return outcome.ok;
  };

  return {
    shown,
    layout,
    setLayout,
    layer,
    closeLayer: () => setLayer(null),
    views,
    applyView: (view: SavedView) => {
      setLayer(null);
      apply(view);
    },
    /** Saves what shows now under `name`; false when the store refused it. */
    saveView: (name: string, isDefault: boolean) => {
      const query = viewQueryOf(withLayout(new URLSearchParams(window.location.search), layout));
      return change({ intent: "save", screen: screen!, view: { name, query, isDefault } });
    },
    deleteView: (name: string) => change({ intent: "delete", screen: screen!, name }),
  };
}
