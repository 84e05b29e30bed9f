/**
 * A market's preview under its row in the workspace: every pending bet with the outcome the result
 * gives it, the counts and the house result (Settle market…'s own derivation), what a correction
 * changed against the feed's result, and the bets that arrived after the preview was read.
 */
import { SETTLEMENT, type SettlementCode, type SportsBet } from "../../../protocol/wire";
import { formatDateTime, formatMoney } from "../../lib/format";
import { OUTCOME_LABEL } from "../../lib/forms/settlement";
import type { QueueRow } from "../../lib/settlement.server";
import { outcomeOf, type MarketResult } from "../../machines/settlement.machine";
import { previewText } from "../bets/settle-client";
import { sideOf } from "../bets/PendingBets";
import { resultText, settlementsOf } from "./workspace-client";

export type Preview = {
  row: QueueRow;
  /** The set the preview read, frozen: exactly these bets are settled. */
  bets: SportsBet[];
  result: MarketResult;
  /** The feed's result, when the operator corrected it. */
  reported: MarketResult | null;
  /** Bets found pending on the market when asked to settle, that the preview did not show. */
  arrived: SportsBet[];
};

const OUTCOME_CLASS: Record<SettlementCode, string> = { [SETTLEMENT.success]: "loss", [SETTLEMENT.fail]: "profit", [SETTLEMENT.abandoned]: "dim" };

export const arrivalText = (count: number) => `${count} ${count === 1 ? "bet" : "bets"} arrived after the preview`;

export function MarketPreview({ preview }: { preview: Preview }) {
  const { row, bets, result, reported, arrived } = preview;
  const corrected = reported && JSON.stringify(reported) !== JSON.stringify(result) ? reported : null;
  const changed = corrected ? bets.filter((bet) => outcomeOf(bet, corrected) !== outcomeOf(bet, result)).length : 0;
  return (
    <div className="settlement-preview" aria-label={`Preview of ${row.event} · ${row.market}`}>
      <p>
        <span className="accent">{resultText(result)}</span>
        {corrected && ` (corrected; the feed reported ${resultText(corrected)}: ${changed} of ${bets.length} bets change outcome)`}
        {" · "}
        {previewText(settlementsOf(bets, result))}
      </p>
      {arrived.length > 0 && (
        <p role="alert" className="pending">
          {arrivalText(arrived.length)}: <kbd>i</kbd> includes {arrived.length === 1 ? "it" : "them"} in the preview, <kbd>y</kbd> settles the{" "}
          {bets.length} previewed only.
        </p>
      )}
      <table aria-label="Bets to settle">
        <thead>
          <tr>
            <th>Bet ID</th>
            <th>User</th>
            <th>Runner</th>
            <th>Side</th>
            <th className="num">Stake</th>
            <th className="num">Price</th>
            <th>Placed</th>
            <th>Outcome</th>
            {corrected && <th>Feed's outcome</th>}
          </tr>
        </thead>
        <tbody>
          {bets.map((bet) => {
            const outcome = outcomeOf(bet, result);
            const was = corrected && outcomeOf(bet, corrected);
            return (
              <tr key={bet._id}>
                <td>{bet._id}</td>
                <td>{bet.username}</td>
                <td>{bet.runner}</td>
                <td>{sideOf(bet)}</td>
                <td className="num">{formatMoney(bet.amount)}</td>
                <td className="num">{bet.x}</td>
                <td>{formatDateTime(bet.createdAt, true)}</td>
                <td className={OUTCOME_CLASS[outcome]}>{OUTCOME_LABEL[outcome]}</td>
                {corrected && <td className={was !== outcome ? "pending" : "dim"}>{was !== outcome ? `${OUTCOME_LABEL[was!]} (changed)` : OUTCOME_LABEL[was!]}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="dim">
        <kbd>y</kbd> settle · <kbd>c</kbd> correct the result · <kbd>v</kbd> void · <kbd>l</kbd> void late bets · <kbd>Esc</kbd> close
      </p>
    </div>
  );
}
