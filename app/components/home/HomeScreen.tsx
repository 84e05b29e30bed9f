/**
 * Home (issue 33): who is signed in, then what needs them now, one line per source with its `g`
 * key; `j`/`k` move the cursor between lines and Enter goes to the line's screen. The lines follow
 * the platform live: the shell reloads them on a new request and on a change in the open
 * approvals, this screen on a relayed `bet-settled`, and every 10 s besides (the spec's poll, for
 * what has no event, such as a request decided elsewhere).
 */
import { useLoaderData, useNavigate } from "@remix-run/react";
import { Fragment, useEffect, useMemo, useRef, useState } from "react";
import { REALTIME_EVENTS } from "../../../protocol/wire";
import { REQUEST_REFRESH_MS, ROLE_LABEL } from "../../lib/constants";
import { formatBalance } from "../../lib/format";
import { homeLines, type HomeLine } from "../../lib/home";
import type { HomeData } from "../../lib/home.server";
import { SCREENS, type Screen } from "../../lib/screens";
import { useQuietRevalidate } from "../../lib/use-quiet-revalidate";
import { useRealtimeEvent } from "../../lib/use-realtime";
import { Keys } from "../ui/Keys";
import { useScreenCommands } from "../ui/shell-context";

/** The last days as block characters, as tall as each day's figure is large; green for a profit, red for a loss. */
function Sparkline({ values }: { values: readonly number[] }) {
  const BLOCKS = "▁▂▃▄▅▆▇█";
  const largest = Math.max(...values.map(Math.abs)) || 1;
  return (
    <span className="sparkline" aria-label={`last ${values.length} days`}>
      {values.map((value, index) => (
        <span key={index} className={value > 0 ? "profit" : value < 0 ? "loss" : "dim"}>
          {BLOCKS[Math.round((Math.abs(value) / largest) * (BLOCKS.length - 1))]}
        </span>
      ))}
    </span>
  );
}

function Line({ line, current, onOpen }: { line: HomeLine; current: boolean; onOpen: () => void }) {
  const screen = line.screen && (SCREENS[line.screen] as Screen);
  const letter = screen?.letter;
  return (
    <li data-line={line.id} data-state={line.state} data-cursor={current || undefined} aria-current={current || undefined} onClick={onOpen}>
      <span className="home-key">{letter ? <Keys sequence={`g ${letter}`} /> : null}</span>
      <span className="home-label">{line.label}</span>
      <span className="home-figures">
        {line.parts.map((part, index) => (
          <Fragment key={index}>
            {index > 0 && <span className="dim"> · </span>}
            <span className={part.tone}>{part.text}</span>
          </Fragment>
        ))}
        {line.sparkline && <Sparkline values={line.sparkline} />}
      </span>
    </li>
  );
}

export function HomeScreen() {
  const { operator, balance, sources, readAt, ageLimits } = useLoaderData<HomeData>();
  const navigate = useNavigate();
  const revalidate = useQuietRevalidate();
  const lines = useMemo(() => homeLines(sources, Date.parse(readAt), ageLimits), [sources, readAt, ageLimits]);
  const [cursor, setCursor] = useState(0);
  const current = Math.min(cursor, Math.max(0, lines.length - 1));
  const open = (line: HomeLine | undefined) => {
    if (!line?.screen) return false;
    navigate(SCREENS[line.screen].path);
  };
  useScreenCommands({
    "home.down": () => setCursor(Math.min(current + 1, lines.length - 1)),
    "home.up": () => setCursor(Math.max(current - 1, 0)),
    "home.open": () => open(lines[current]),
  });
  useRealtimeEvent(REALTIME_EVENTS.betSettled, () => revalidate());
  const latest = useRef(revalidate);
  latest.current = revalidate;
  useEffect(() => {
    const timer = setInterval(() => document.visibilityState === "visible" && latest.current(), REQUEST_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const flags = Object.keys(operator.flags);

  return (
    <section className="home" aria-labelledby="home-title">
      <h2 id="home-title">Signed in as {operator.username}</h2>
      <p className="home-facts">
        <span>{ROLE_LABEL[operator.role]}</span>
        <span>
          balance <span className="num">{formatBalance(balance)}</span>
        </span>
        <span>flags {flags.length ? flags.join(" ") : <span className="dim">none</span>}</span>
      </p>
      <h3 id="home-now">What needs you now</h3>
      {lines.length > 0 ? (
        <ol className="home-lines" aria-labelledby="home-now">
          {lines.map((line, index) => (
            <Line key={line.id} line={line} current={index === current} onOpen={() => open(line)} />
          ))}
        </ol>
      ) : (
        <p className="dim">Nothing here is yours to watch.</p>
      )}
      <p className="hints dim">
        <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> goes there · <Keys sequence="mod+k" /> or <kbd>:</kbd> palette · <kbd>?</kbd> every key
      </p>
    </section>
  );
}
