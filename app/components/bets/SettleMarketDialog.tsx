/**
 * Settle market… and Void bets of event… (docs/product.md §4): event → market → result, each a list moved
 * with j/k or the arrows and chosen with Enter (Backspace goes back a step). The choices come from
 * the pending bets alone; the result offers the runners seen in the market's bets, "Another
 * runner" (every back loses, every lay wins) and "Abandoned" (all void); a fancy line asks the
 * final run count. The outcome of every bet is derived here and handed on as one settlement job.
 * The server keeps each set by the bets' own event and market and refuses one it could not read
 * whole; the dialog checks the set against its choice again and names both from the bets.
 */
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { SportsBet } from "../../../protocol/wire";
import type { MarketTotal, SettleChoices } from "../../lib/bets.server";
import { formatMoney } from "../../lib/format";
import { scopeProblem, type SettlementScope } from "../../lib/forms/settlement";
import { partialText } from "../../lib/list";
import { outcomeOf, type MarketResult } from "../../machines/settlement.machine";
import { Overlay } from "../ui/Overlay";

export type SettleRequest = {
  title: string;
  question: string;
  settlements: Array<{ bet: SportsBet; status: 1 | 2 | 3 }>;
  scope: SettlementScope;
};

type Props = {
  /** `market`: settle one market by its result; `void-event`: void every pending bet of an event. */
  mode: "market" | "void-event";
  eventId?: string;
  marketId?: string;
  onSettle: (request: SettleRequest) => void;
  onClose: () => void;
};

export type Choice = { key: string; label: string; detail?: string };

export function SettleMarketDialog({ mode, eventId: givenEvent, marketId: givenMarket, onSettle, onClose }: Props) {
  const [eventId, setEventId] = useState(givenEvent);
  const [marketId, setMarketId] = useState(mode === "market" ? givenMarket : undefined);
  const [refusal, setRefusal] = useState<string | null>(null);
  const choices = useFetcher<SettleChoices>();
  const title = mode === "market" ? "Settle market" : "Void bets of event";

  useEffect(() => {
    const query = new URLSearchParams({ ...(eventId ? { eventId } : {}), ...(eventId && marketId ? { marketId } : {}) });
    choices.load(`/resources/bets/settle-choices?${query}`);
  }, [eventId, marketId]);

  const data = choices.state === "idle" ? choices.data : undefined;
  const back = () => {
    setRefusal(null);
    if (marketId) setMarketId(undefined);
    else if (eventId) setEventId(undefined);
    else onClose();
  };
  const settle = (bets: readonly SportsBet[], result: MarketResult, what: string) => {
    const scope = mode === "market" ? { eventId, marketId } : { eventId };
    const problem = scopeProblem(bets, scope);
    if (problem) return setRefusal(problem);
    const settlements = bets.map((bet) => ({ bet, status: outcomeOf(bet, result) }));
    onSettle({ title, question: `${what}: settle ${settlements.length} bets?`, settlements, scope });
  };
  // The server's refusal applies to the set this step settles: the market's, or the event's when voiding.
  const serverRefusal = data && (data.step === "result" || (data.step === "market" && mode === "void-event")) ? data.refusal : null;

  let body;
  if (!data) body = <p className="dim">Loading…</p>;
  else if (refusal ?? serverRefusal) body = <Refusal message={(refusal ?? serverRefusal)!} onBack={back} />;
  else if (data.step === "market" && mode === "void-event") {
    const event = data.bets[0]?.event ?? eventId;
    body = (
      <ChoiceList
        key="void"
        label="Void every pending bet of"
        empty="No pending bets on this event"
        choices={data.bets.length ? [{ key: "void", label: `${event}`, detail: `${data.bets.length} bets` }] : []}
        onChoose={() => settle(data.bets, { kind: "abandoned" }, `Void ${event}`)}
        onBack={back}
      />
    );
  } else if (data.step !== "result") {
    const events = data.step === "event";
    body = (
      <ChoiceList
        key={data.step}
        label={events ? "Event" : "Market"}
        empty={events ? "No pending bets" : "No pending bets on this event"}
        choices={data.choices.map((total) => (events ? totalChoice(total.eventId, total.event, total) : totalChoice(total.marketId, total.market, total)))}
        note={data.step === "event" && !data.coverage.complete ? `Events of the ${partialText(data.coverage)} pending bets` : undefined}
        onChoose={events ? setEventId : setMarketId}
        onBack={back}
      />
    );
  } else {
    body = <ResultStep key="result" bets={data.bets} onResult={(result, what) => settle(data.bets, result, what)} onBack={back} />;
  }

  return (
    <Overlay label={title} onClose={onClose} className="dialog settle-market">
      <h2>{title}</h2>
      {body}
    </Overlay>
  );
}

const totalChoice = (key: string, label: string, total: Pick<MarketTotal, "count" | "exposure">): Choice => ({
  key,
  label,
  detail: `${total.count} bets · exposure ${formatMoney(total.exposure)}`,
});

export function ResultStep({ bets, onResult, onBack }: { bets: SportsBet[]; onResult: (result: MarketResult, what: string) => void; onBack: () => void }) {
  const market = bets[0];
  const [runs, setRuns] = useState("");
  if (!market) return <ChoiceList label="Result" empty="No pending bets on this market" choices={[]} onChoose={() => {}} onBack={onBack} />;
  const what = `${market.event} · ${market.market}`;
  if (market.type === "fancy") {
    const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
      if (event.key === "Backspace" && runs === "") onBack();
      else if (event.key === "Enter" && /^\d{1,4}$/.test(runs)) onResult({ kind: "runs", runs: Number(runs) }, `${what} ended on ${runs} runs`);
      else if (event.key === "Enter" && runs.toLowerCase() === "v") onResult({ kind: "abandoned" }, `${what} abandoned`);
      else return;
      event.preventDefault();
    };
    return (
      <label className="field">
        Final run count (or v: abandoned)
        <input autoFocus inputMode="numeric" aria-label="Final run count" value={runs} onChange={(event) => setRuns(event.target.value.trim())} onKeyDown={onKeyDown} />
      </label>
    );
  }
  const runners = [...new Set(bets.map((bet) => bet.runner))].sort();
  const choices: Choice[] = [
    ...runners.map((runner) => ({ key: `runner:${runner}`, label: runner, detail: "won" })),
    { key: "another", label: "Another runner", detail: "every back loses, every lay wins" },
    { key: "abandoned", label: "Abandoned", detail: "every bet void" },
  ];
  return (
    <ChoiceList
      label={`Result of ${what}`}
      empty=""
      choices={choices}
      onBack={onBack}
      onChoose={(key) => {
        if (key === "another") onResult({ kind: "another" }, `${what}: another runner won`);
        else if (key === "abandoned") onResult({ kind: "abandoned" }, `${what} abandoned`);
        else onResult({ kind: "runner", name: key.slice("runner:".length) }, `${what}: ${key.slice("runner:".length)} won`);
      }}
    />
  );
}

/** Why this set cannot be settled; Backspace goes back a step. */
function Refusal({ message, onBack }: { message: string; onBack: () => void }) {
  const box = useRef<HTMLParagraphElement>(null);
  useEffect(() => box.current?.focus(), []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Backspace") return;
    event.preventDefault();
    onBack();
  };
  return (
    <p ref={box} role="alert" tabIndex={0} className="error-message" onKeyDown={onKeyDown}>
      {message}
    </p>
  );
}

/** A keyboard list: j/k or the arrows move, Enter chooses, Backspace goes back. */
export function ChoiceList({
  label,
  empty,
  note,
  choices,
  onChoose,
  onBack,
}: {
  label: string;
  empty: string;
  note?: string;
  choices: Choice[];
  onChoose: (key: string) => void;
  onBack: () => void;
}) {
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  // Each step's list takes the keys as it appears (autoFocus works on form fields only).
  useEffect(() => list.current?.focus(), []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "j") setActive((index) => Math.min(index + 1, choices.length - 1));
    else if (event.key === "ArrowUp" || event.key === "k") setActive((index) => Math.max(index - 1, 0));
    else if (event.key === "Enter" && choices[active]) onChoose(choices[active]!.key);
    else if (event.key === "Backspace") onBack();
    else return;
    event.preventDefault();
  };
  return (
    <div>
      <p className="accent" id="settle-step">
        {label}
      </p>
      {note && <p className="dim">{note}</p>}
      {choices.length === 0 ? (
        <p className="dim">{empty}</p>
      ) : (
        <ul
          ref={list}
          role="listbox"
          aria-labelledby="settle-step"
          tabIndex={0}
          className="choice-list"
          onKeyDown={onKeyDown}
          aria-activedescendant={`choice-${active}`}
        >
          {choices.map((choice, index) => (
            <li
              key={choice.key}
              id={`choice-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onChoose(choice.key)}
            >
              {choice.label} {choice.detail && <span className="dim">{choice.detail}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
