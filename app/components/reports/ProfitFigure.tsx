/** A profit or loss in words, sign and colour: `Profit +1,200.00`, `Loss −300.00` (colour is never the only cue). */
import { formatMoney } from "~/lib/format";

export const profitWord = (amount: number) => (amount > 0 ? "Profit" : amount < 0 ? "Loss" : "Even");

export function ProfitFigure({ amount }: { amount: number }) {
  const sign = amount > 0 ? "+" : amount < 0 ? "−" : "";
  return (
    <span className={amount > 0 ? "profit" : amount < 0 ? "loss" : "dim"}>
      {profitWord(amount)} {sign}
      {formatMoney(Math.abs(amount))}
    </span>
  );
}
