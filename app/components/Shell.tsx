/**
 * The signed-in frame: top bar, sidebar, the page, the status line, and the palette and key help
 * layers. It builds the command context and runs the registry for keys, buttons and palette alike.
 */
import { useNavigate } from "@remix-run/react";
import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { commandById, commandsFor } from "../commands/registry";
import type { CommandContext, Operator, ViewSelection } from "../commands/types";
import { useGlobalKeys } from "../commands/useGlobalKeys";
import { usePageTitle } from "../lib/page";
import type { PendingCounts } from "../lib/requests.server";
import { speakAlert } from "../lib/speech";
import { useQuietRevalidate } from "../lib/use-quiet-revalidate";
import { useRealtime } from "../lib/use-realtime";
import { useActionRunner } from "../lib/use-action-runner";
import { SessionActor } from "../lib/session-context";
import type { BulkJob } from "./BulkRun";
import { Sidebar } from "./Sidebar";
import { StatusLine } from "./StatusLine";

type Layer = "palette" | "help" | "bulk" | null;

/**
 * The layers are code the first screen does not need (cmdk among it): they load at the operator's
 * first key or pointer press, so the first Ctrl+K still opens at once.
 */
const loadLayers = () => import("./layers");
const Palette = lazy(() => loadLayers().then((layers) => ({ default: layers.Palette })));
const KeyHelp = lazy(() => loadLayers().then((layers) => ({ default: layers.KeyHelp })));
const BulkRun = lazy(() => loadLayers().then((layers) => ({ default: layers.BulkRun })));

const RunCommand = createContext<(id: string) => void>(() => {
  throw new Error("useCommand is used outside the shell");
});

const ReportSelection = createContext<(selection: ViewSelection | null) => void>(() => {});

/** A list screen tells the shell what is selected, so bulk commands can act on it. */
export const useReportSelection = () => useContext(ReportSelection);

/** A button's way to run a registry command: the same code path as its keys and the palette. */
export function useCommand(id: string): () => void {
  const run = useContext(RunCommand);
  return useCallback(() => run(id), [run, id]);
}

type ShellProps = { operator: Operator; balance: number | "unlimited"; pending: PendingCounts; children: ReactNode };

/** Whether spoken alerts are muted, remembered in this browser. */
const MUTE_KEY = "betdesk.muted";

export function Shell({ operator, balance, pending, children }: ShellProps) {
  const title = usePageTitle();
  const navigate = useNavigate();
  const session = SessionActor.useActorRef();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [layer, setLayer] = useState<Layer>(null);
  const [selection, setSelection] = useState<ViewSelection | null>(null);
  const [bulkJob, setBulkJob] = useState<BulkJob | null>(null);
  const submitAction = useActionRunner();
  const revalidate = useQuietRevalidate();
  const [muted, setMuted] = useState(false);
  useEffect(() => setMuted(localStorage.getItem(MUTE_KEY) === "1"), []);
  const toggleMute = useCallback(() => {
    setMuted((current) => {
      localStorage.setItem(MUTE_KEY, current ? "0" : "1");
      return !current;
    });
  }, []);
  // A new request: say so (spec §8) and refresh what shows it (counts, an open request list).
  const realtime = useRealtime(({ kind }) => {
    if (!muted) speakAlert(kind);
    revalidate();
  });

  useEffect(() => session.send({ type: "session.resumed" }), [session]);
  useEffect(() => {
    const warm = () => void loadLayers();
    window.addEventListener("keydown", warm, { once: true, capture: true });
    window.addEventListener("pointerdown", warm, { once: true, capture: true });
    return () => {
      window.removeEventListener("keydown", warm, { capture: true });
      window.removeEventListener("pointerdown", warm, { capture: true });
    };
  }, []);
  // Spec §2.3: the sidebar closes whenever the page title changes.
  useEffect(() => setSidebarOpen(false), [title]);

  const context: CommandContext = useMemo(
    () => ({
      operator,
      navigate: (to) => navigate(to),
      toggleSidebar: () => setSidebarOpen((open) => !open),
      openPalette: () => setLayer((current) => (current === "palette" ? null : "palette")),
      openHelp: () => setLayer("help"),
      toggleMute,
      logout: () => session.send({ type: "session.logout" }),
      submitAction,
      selection,
      download: (href) => {
        const link = Object.assign(document.createElement("a"), { href, download: "" });
        link.click();
      },
      startBulk: (job) => {
        setBulkJob(job);
        setLayer("bulk");
      },
    }),
    [operator, navigate, session, submitAction, selection, toggleMute],
  );
  const commands = useMemo(() => commandsFor(operator, selection), [operator, selection]);
  const keyPrefix = useGlobalKeys(commands, context, layer !== null);
  const runById = useCallback((id: string) => void commandById(id).run(context, {}), [context]);
  // A command run from the palette may itself open another layer (key help); leave that open.
  const closePalette = useCallback(() => setLayer((current) => (current === "palette" ? null : current)), []);

  const mode = layer ? layer.toUpperCase() : keyPrefix ? `${keyPrefix}-` : selection?.rows.length ? `${selection.rows.length} SELECTED` : "NORMAL";

  return (
    <RunCommand.Provider value={runById}>
      <ReportSelection.Provider value={setSelection}>
        <div className="shell" data-sidebar={sidebarOpen ? "open" : "closed"}>
          <header className="top-bar">
            <button
              type="button"
              className="sidebar-toggle"
              aria-label="Toggle sidebar"
              aria-expanded={sidebarOpen}
              aria-controls="sidebar"
              onClick={context.toggleSidebar}
            >
              ☰
            </button>
            <h1 className="page-title">{title} - Admin</h1>
          </header>
          <Sidebar open={sidebarOpen} username={operator.username} onLogout={context.logout} />
          <main className="page" id="main">
            {children}
          </main>
          <StatusLine
            operator={operator}
            balance={balance}
            mode={mode}
            realtime={realtime}
            pending={pending}
            muted={muted}
            onToggleMute={toggleMute}
          />
          <Suspense fallback={null}>
            {layer === "palette" && <Palette commands={commands} context={context} onClose={closePalette} />}
            {layer === "help" && <KeyHelp commands={commands} onClose={() => setLayer(null)} />}
            {layer === "bulk" && bulkJob && <BulkRun job={bulkJob} onClose={() => setLayer(null)} />}
          </Suspense>
        </div>
      </ReportSelection.Provider>
    </RunCommand.Provider>
  );
}
