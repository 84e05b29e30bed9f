/**
 * Void late bets… (issue 18): bets accepted after the incident that decided them, voided by time
 * window. The event's market (or every market of it), the window's end (the market's close when
 * the feed reported one, or now), its start (`HH:MM[:SS]` in the console's zone, or `-90s` before
 * the end), then the preview: the bets placed inside it, to the second, and their total. `y` is the
 * one confirmation; the rest of the market stays pending. Backspace goes back a step.
 */
import { useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { SETTLEMENT, type SportsBet } from "../../../protocol/wire";
import { formatDateTime, formatMoney } from "../../lib/format";
import { inWindow, windowStartOf } from "../../lib/late-window";
import type { BulkJob } from "../../machines/bulk.machine";
import { messageOf } from "../../machines/error-message";
import { ChoiceList } from "../bets/SettleMarketDialog";
import { settleJob } from "../bets/settle-client";
import { sideOf } from "../bets/PendingBets";
import { Overlay } from "../ui/Overlay";
import { pendingSet } from "./workspace-client";
import type { MarketTotal } from "../../lib/bets.server";

type Props = {
  eventId: string;
  marketId?: string;
  /** The market's close as the feed reported it, when known. */
  closedAt: string | null;
  onVoid: (job: BulkJob) => void;
  onClose: () => void;
};

type Loaded = { bets: SportsBet[]; markets: MarketTotal[] };
type Span = { from: Date; end: Date; endText: string };

export function VoidLateBetsDialog({ eventId, marketId: givenMarket, closedAt, onVoid, onClose }: Props) {
  const timeZone = useRouteLoaderData<{ timeZone: string }>("root")?.timeZone ?? "UTC";
  const [marketId, setMarketId] = useState<string | null | undefined>(givenMarket);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [end, setEnd] = useState<{ at: Date; text: string } | null>(null);
  const [span, setSpan] = useState<Span | null>(null);

  // The event's whole set first (its markets to choose from), then the chosen market's.
  useEffect(() => {
    setLoaded(null);
    pendingSet({ eventId, ...(marketId ? { marketId } : {}) }).then(setLoaded, (error: unknown) => setProblem(messageOf(error)));
  }, [eventId, marketId]);

  const back = () => {
    if (span) setSpan(null);
    else if (end) setEnd(null);
    else if (marketId !== undefined && !givenMarket) setMarketId(undefined);
    else onClose();
  };
  const what = loaded?.bets[0] ? `${loaded.bets[0].event}${marketId ? ` · ${loaded.bets[0].market}` : ""}` : eventId;

  let body;
  if (problem) body = <p role="alert" className="error-message">{problem}</p>;
  else if (!loaded) body = <p className="dim">Loading…</p>;
  else if (marketId === undefined) {
    body = (
      <ChoiceList
        label="Market"
        empty="No pending bets on this event"
        choices={[
          ...(loaded.bets.length ? [{ key: "", label: "Every market of the event", detail: `${loaded.bets.length} bets` }] : []),
          ...loaded.markets.map((market) => ({ key: market.marketId, label: market.market, detail: `${market.count} bets` })),
        ]}
        onChoose={(key) => setMarketId(key || null)}
        onBack={back}
      />
    );
  } else if (!end) {
    const close = marketId && closedAt ? [{ key: "close", label: `The market's close, ${formatDateTime(closedAt, true)}` }] : [];
    body = (
      <ChoiceList
        label="The window ends at"
        empty=""
        choices={[...close, { key: "now", label: "Now" }]}
        onChoose={(key) => setEnd(key === "close" ? { at: new Date(closedAt!), text: "the close" } : { at: new Date(), text: "now" })}
        onBack={back}
      />
    );
  } else if (!span) {
    body = <WindowStart end={end} timeZone={timeZone} onWindow={(from) => setSpan({ from, end: end.at, endText: end.text })} onBack={back} />;
  } else {
    const late = loaded.bets.filter((bet) => inWindow(bet.createdAt, span.from, span.end));
    const stake = late.reduce((sum, bet) => sum + Math.round(bet.amount * 100), 0) / 100;
    const confirm = () => {
      if (late.length === 0) return;
      const question = `Void the ${late.length} bets of ${what} placed from ${formatDateTime(span.from.toISOString(), true)} to ${span.endText}?`;
      const scope = { eventId, ...(marketId ? { marketId } : {}) };
      onVoid(settleJob("Void late bets", late.map((bet) => ({ bet, status: SETTLEMENT.abandoned })), question, scope));
    };
    body = <LatePreview bets={late} stake={stake} span={span} onConfirm={confirm} onBack={back} />;
  }

  return (
    <Overlay label="Void late bets" onClose={onClose} className="dialog settle-market">
      <h2>Void late bets: {what}</h2>
      {body}
    </Overlay>
  );
}

function WindowStart({ end, timeZone, onWindow, onBack }: { end: { at: Date; text: string }; timeZone: string; onWindow: (from: Date) => void; onBack: () => void }) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Backspace" && text === "") onBack();
    else if (event.key === "Enter") {
      const start = windowStartOf(text, end.at, timeZone);
      if (start.from) onWindow(start.from);
      else setProblem(start.problem);
    } else return;
    event.preventDefault();
  };
  return (
    <label className="field">
      From (HH:MM[:SS] in {timeZone}, or -90s before {end.text}, {formatDateTime(end.at.toISOString(), true)})
      <input
        autoFocus
        aria-label="Window start"
        aria-invalid={problem !== null}
        value={text}
        onChange={(event) => (setText(event.target.value), setProblem(null))}
        onKeyDown={onKeyDown}
      />
      {problem && <span role="alert" className="error-message">{problem}</span>}
    </label>
  );
}

function LatePreview({ bets, stake, span, onConfirm, onBack }: { bets: SportsBet[]; stake: number; span: Span; onConfirm: () => void; onBack: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "y") onConfirm();
    else if (event.key === "Backspace" || event.key === "n") onBack();
    else return;
    event.preventDefault();
  };
  return (
    <div ref={box} tabIndex={0} onKeyDown={onKeyDown} aria-label="Late bets">
      <p>
        {bets.length} {bets.length === 1 ? "bet" : "bets"} placed from {formatDateTime(span.from.toISOString(), true)} to {span.endText} (
        {formatDateTime(span.end.toISOString(), true)}) · stake {formatMoney(stake)}
      </p>
      <table aria-label="Bets to void">
        <thead>
          <tr>
            <th>Bet ID</th>
            <th>User</th>
            <th>Market</th>
            <th>Runner</th>
            <th>Side</th>
            <th className="num">Stake</th>
            <th>Placed</th>
          </tr>
        </thead>
        <tbody>
          {bets.map((bet) => (
            <tr key={bet._id}>
              <td>{bet._id}</td>
              <td>{bet.username}</td>
              <td>{bet.market}</td>
              <td>{bet.runner}</td>
              <td>{sideOf(bet)}</td>
              <td className="num">{formatMoney(bet.amount)}</td>
              <td>{formatDateTime(bet.createdAt, true)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="dim">
        {bets.length > 0 ? (
          <>
            <kbd>y</kbd> void these {bets.length} bets (status 3); the rest stay pending ·{" "}
          </>
        ) : (
          "No bet was placed inside this window · "
        )}
        <kbd>Backspace</kbd> change the window
      </p>
    </div>
  );
}
