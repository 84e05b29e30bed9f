/**
 * The signed-in frame: top bar, sidebar, the page, the status line, and the palette and key help
 * layers. It builds the command context and runs the registry for keys, buttons and palette alike.
 */
import { useLocation, useNavigate } from "@remix-run/react";
import { lazy, startTransition, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { commandById, commandsFor, mayRun, PICK_SOURCES, screenCommandsFor } from "../../commands/registry";
import type { CommandContext, Operator, ViewSelection } from "../../commands/types";
import { describeKeys, keyToken } from "../../commands/keymap";
import { useKeyDispatcher } from "../../commands/use-key-dispatcher";
import { announce, notifyError, notifyNote } from "../../lib/feedback";
import { historyOf, lastTaking } from "../../lib/palette-history";
import { TOAST, type PendingCounts } from "../../lib/constants";
import { HOLD, holdKeys, onKeysRefused, releaseKeys, screenRendered } from "../../lib/key-buffer";
import { documentTitle, usePageTitle } from "../../lib/page";
import { lackOf, type Lacking } from "../../lib/capabilities";
import { LETTERED_SCREENS, mayOpen, readsAhead, screenAt } from "../../lib/screens";
import { speakAlert } from "../../lib/speech";
import { useQuietRevalidate } from "../../lib/use-quiet-revalidate";
import { atIdleWithoutJobs, firstVisitsFrom, newsArrived, ReadAhead, readAheadFrom, useScreenRefresh } from "../../lib/screen-cache";
import { useRememberShown } from "../../lib/outage";
import { loadRouteCode } from "../../lib/route-code";
import { useRealtime } from "../../lib/use-realtime";
import { useActionRunner } from "../../lib/use-action-runner";
import { ReauthDialog } from "./ReauthDialog";
import { SessionActor } from "../../lib/session-context";
import type { BulkJob } from "../../machines/bulk.machine";
import type { PaletteStart } from "./Palette";
import { PermissionDenied } from "./RouteError";
import { ShellContext, type ScreenHandlers, type ShellApi } from "./shell-context";
import { Sidebar } from "./Sidebar";
import { StatusLine } from "./StatusLine";

type Layer = "palette" | "help" | "bulk" | null;

/** Says when the Suspense boundary it is in has mounted (hydrated). */
function Ready({ onReady }: { onReady: () => void }) {
  useEffect(onReady, [onReady]);
  return null;
}

/**
 * The layers are code the first screen does not need (cmdk among it): they load at the first idle
 * moment after sign-in, or sooner at the operator's first key or pointer press, so the first
 * Ctrl+K still opens at once.
 */
const loadLayers = () => import("./layers");
const Palette = lazy(() => loadLayers().then((layers) => ({ default: layers.Palette })));
const KeyHelp = lazy(() => loadLayers().then((layers) => ({ default: layers.KeyHelp })));
const BulkRun = lazy(() => loadLayers().then((layers) => ({ default: layers.BulkRun })));

type ShellProps = {
  operator: Operator;
  balance: number | "unlimited";
  pending: PendingCounts;
  /** The extension calls the operator's API showed missing: their commands say why instead of running. */
  lacking: Lacking;
  children: ReactNode;
};

/** Whether spoken alerts are muted, remembered in this browser. */
const MUTE_KEY = "betdesk.muted";

export function Shell({ operator, balance, pending, lacking, children }: ShellProps) {
  const title = usePageTitle();
  const navigate = useNavigate();
  const session = SessionActor.useActorRef();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [layer, setLayer] = useState<Layer>(null);
  const layerNow = useRef(layer);
  layerNow.current = layer;
  /** A command a button started whose remaining steps the palette asks (or `.` re-opened at its confirmation). */
  const [started, setStarted] = useState<PaletteStart | null>(null);
  const location = useLocation();
  const screen = screenAt(location.pathname);
  const [selection, setSelection] = useState<ViewSelection | null>(null);
  const [bulkJob, setBulkJob] = useState<BulkJob | null>(null);
  const submitAction = useActionRunner();
  const revalidate = useQuietRevalidate();
  useScreenRefresh(revalidate);
  useRememberShown();
  const handlers = useRef(new Set<() => ScreenHandlers>());
  /** The showing screen's handler of a screen key, read when the key arrives. */
  const handlerOf = useCallback((id: string) => {
    for (const current of handlers.current) {
      const handler = current()[id as keyof ScreenHandlers];
      if (handler) return handler;
    }
    return undefined;
  }, []);
  const [muted, setMuted] = useState(false);
  useEffect(() => setMuted(localStorage.getItem(MUTE_KEY) === "1"), []);
  // The layers' Suspense boundary hydrates after the rest of the page, and a key answered before
  // that would make React render it anew (error 421): keys wait until it has (Ready below).
  // (Mounted without hydration, the boundary's effect runs first: then there is nothing to wait for.)
  const layersReady = useRef(false);
  // Keys typed while a navigation renders wait for its screen (app/lib/key-buffer.ts, KeyBuffer).
  // A parent's effect runs after the screen's own, so its key handlers are in place by then. The
  // path is compared with the address bar's, so it is spelt (percent-encoded) as the browser spells it.
  useEffect(() => {
    screenRendered(new URL(location.pathname, window.location.href).pathname);
    return () => screenRendered(undefined);
  }, [location.pathname]);
  // Each navigation has its own key: the address the palette opened (same path or not) has rendered.
  useEffect(() => releaseKeys(HOLD.opening), [location.key]);
  useEffect(() => {
    if (!layersReady.current) holdKeys(HOLD.layers);
  }, []);
  const onLayersReady = useCallback(() => {
    layersReady.current = true;
    releaseKeys(HOLD.layers);
    releaseKeys(HOLD.signIn);
  }, []);
  const toggleMute = useCallback(() => {
    setMuted((current) => {
      localStorage.setItem(MUTE_KEY, current ? "0" : "1");
      return !current;
    });
  }, []);
  // A new request: say so (docs/product.md §8) and refresh what shows it (counts, an open request list).
  const realtime = useRealtime(({ kind }) => {
    if (!muted) speakAlert(kind);
    newsArrived();
    revalidate();
  });

  useEffect(() => session.send({ type: "session.resumed" }), [session]);
  useEffect(() => {
    const warm = () => void loadLayers();
    window.addEventListener("pointerdown", warm, { once: true, capture: true });
    return () => window.removeEventListener("pointerdown", warm, { capture: true });
  }, []);
  // Keys typed while the page loaded that nothing took say so on the status line (app/lib/key-buffer.ts).
  const [refused, setRefused] = useState<string | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onKeysRefused((keys) => {
      const typed = keys.map((key) => ("click" in key ? "click" : describeKeys(keyToken(key) ?? key.key))).join(" ");
      setRefused((current) => (current ? `${current} ${typed}` : typed));
      clearTimeout(timer);
      timer = setTimeout(() => setRefused(null), TOAST.durationMs);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, []);
  // docs/product.md §2.3: the sidebar closes whenever the page title changes.
  useEffect(() => setSidebarOpen(false), [title]);

  // Layers open as transitions: a key pressed while parts of the page are still hydrating must not
  // force them to re-render from scratch (React error 421), and a layer's code may still be loading.
  const context: CommandContext = useMemo(
    () => ({
      operator,
      navigate: (to) => navigate(to),
      toggleSidebar: () => setSidebarOpen((open) => !open),
      location: { pathname: location.pathname, search: location.search },
      openPalette: () => {
        // Keys typed next belong to the palette: held until its field is there (Palette releases them).
        if (layerNow.current !== "palette") holdKeys(HOLD.palette);
        startTransition(() => {
          setStarted(null);
          setLayer((current) => (current === "palette" ? null : "palette"));
        });
      },
      openHelp: () => startTransition(() => setLayer("help")),
      toggleMute,
      logout: () => session.send({ type: "session.logout" }),
      submitAction,
      selection,
      download: (href) => {
        const link = Object.assign(document.createElement("a"), { href, download: "" });
        link.click();
      },
      startBulk: (job) =>
        startTransition(() => {
          setBulkJob(job);
          setLayer("bulk");
        }),
      screenKey: (id) => {
        const handler = handlerOf(id);
        if (handler === undefined || handler() === false) return false;
        // Run from the palette (Columns…): the palette closes in the commit that shows what the key opened. Closed after,
        // once its command had answered, it was still the open layer, pausing the page's keys, when that dialog was
        // already gone: a `?` typed right after Esc was lost.
        setLayer((current) => (current === "palette" ? null : current));
        return true;
      },
    }),
    [operator, navigate, session, submitAction, selection, toggleMute, location.pathname, location.search],
  );
  const commands = useMemo(() => commandsFor(operator, selection, lacking), [operator, selection, lacking]);
  // A screen showing Permission Denied has no keys.
  const allowed = screen !== undefined && mayOpen(screen, operator);
  const screenCommands = useMemo(() => screenCommandsFor(allowed ? screen.scopes : []), [screen, allowed]);
  const keyPrefix = useKeyDispatcher({
    commands,
    screenCommands,
    handlerOf,
    context,
    paused: layer !== null,
    onFirstKey: () => void loadLayers(),
  });
  // `g` starts loading before its letter: the kept screens in use whose data is getting old.
  const [readingAhead, setReadingAhead] = useState<readonly string[]>([]);
  useEffect(() => {
    if (keyPrefix !== "g") return;
    const more = readAheadFrom(`${location.pathname}${location.search}`);
    if (more.length > 0) setReadingAhead((current) => [...current, ...more]);
  }, [keyPrefix]);
  // The first idle moment after sign-in with no job shown readies the first visits (issue 35): the lettered screens'
  // code (those the page has discovered: app/lib/route-code.ts), the layers' code (else loaded by the first key,
  // beside the switch it starts), and the light desks' data (screens.ts, `readAhead`).
  // A desk is read ahead only once its code has loaded (loadRouteCode says why), and only if no job is shown by then.
  useEffect(() => {
    const screens = LETTERED_SCREENS.filter((one) => mayOpen(one, operator));
    return atIdleWithoutJobs(
      () => {
        void loadLayers();
        return loadRouteCode(screens.map((one) => one.path));
      },
      (loaded) => {
        const ahead = screens.filter((one) => readsAhead(one, operator) && !one.extension && one.path !== window.location.pathname && loaded.includes(one.path));
        const more = firstVisitsFrom(ahead.map((one) => one.path));
        if (more.length > 0) setReadingAhead((current) => [...current, ...more]);
      },
    );
  }, []);
  const readAheadDone = useCallback((address: string) => setReadingAhead((current) => current.filter((one) => one !== address)), []);
  const latestContext = useRef(context);
  latestContext.current = context;
  const shell: ShellApi = useMemo(
    () => ({
      operator,
      lacking,
      reportSelection: setSelection,
      registerHandlers: (screenHandlers) => {
        handlers.current.add(screenHandlers);
        return () => handlers.current.delete(screenHandlers);
      },
      // A button runs the registry's command: steps it did not answer (a confirmation) are asked
      // by the palette, exactly as when the command is chosen there.
      runCommand: (id, answers = {}) => {
        const command = commandById(id);
        // A button runs only what the palette would offer this operator; the platform checks again.
        if (!mayRun(command, operator, latestContext.current.selection)) return;
        const refusal = lackOf(command, lacking);
        if (refusal) return notifyError(refusal);
        if (command.steps?.some((step) => !(step.name in answers))) {
          startTransition(() => {
            setStarted({ command, answers });
            setLayer("palette");
          });
          return;
        }
        void Promise.resolve(command.run(latestContext.current, answers)).then((outcome) => outcome && announce(outcome));
      },
      repeatOnRow: (row) => {
        const offered = commandsFor(operator, latestContext.current.selection, lacking).filter((command) => !command.refusal);
        const last = lastTaking(historyOf(operator.username), offered, row);
        if (!last) return notifyNote("Nothing to repeat: no row command run yet");
        startTransition(() => {
          setStarted({ command: last.command, answers: { ...last.entry.answers, ...row.answers }, reopen: true });
          setLayer("palette");
        });
      },
    }),
    [operator, lacking],
  );
  // A command run from the palette may itself open another layer (key help); leave that open.
  const closePalette = useCallback(() => setLayer((current) => (current === "palette" ? null : current)), []);

  const mode = layer ? layer.toUpperCase() : keyPrefix ? `${keyPrefix}-` : selection?.rows.length ? `${selection.rows.length} SELECTED` : "NORMAL";

  return (
    <ShellContext.Provider value={shell}>
        <div className="shell" data-sidebar={sidebarOpen ? "open" : "closed"}>
          <header className="top-bar">
            <button
              type="button"
              className="sidebar-toggle"
              aria-label="Toggle sidebar"
              aria-expanded={sidebarOpen}
              aria-controls="sidebar"
              onClick={() => shell.runCommand("sidebar.toggle")}
            >
              ☰
            </button>
            <h1 className="page-title">{documentTitle(title)}</h1>
          </header>
          <Sidebar open={sidebarOpen} operator={operator} onLogout={() => shell.runCommand("session.logout")} />
          <main className="page" id="main">
            {screen && !allowed ? <PermissionDenied /> : children}
          </main>
          <StatusLine
            operator={operator}
            balance={balance}
            mode={mode}
            refusedKeys={refused}
            realtime={realtime}
            pending={pending}
            muted={muted}
            onToggleMute={() => shell.runCommand("alerts.mute")}
          />
          {readingAhead.map((address) => (
            <ReadAhead key={address} address={address} onDone={readAheadDone} />
          ))}
          <Suspense fallback={null}>
            <Ready onReady={onLayersReady} />
            {layer === "palette" && <Palette commands={commands} sources={PICK_SOURCES} context={context} start={started} onClose={closePalette} />}
            {layer === "help" && (
              <KeyHelp commands={commands} screenCommands={screenCommands} screen={screen?.label} onClose={() => setLayer(null)} />
            )}
            {layer === "bulk" && bulkJob && <BulkRun job={bulkJob} onClose={() => setLayer(null)} />}
          </Suspense>
          <ReauthDialog />
        </div>
    </ShellContext.Provider>
  );
}
