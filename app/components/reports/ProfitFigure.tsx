/** A profit or loss in words, sign and colour: `Profit +1,200.00`, `Loss −300.00` (colour is never the only cue). */
import { formatMoney, profitSign } from "~/lib/format";

export const profitWord = (amount: number) => (amount > 0 ? "Profit" : amount < 0 ? "Loss" : "Even");

export function ProfitFigure({ amount }: { amount: number }) {
  return (
    <span className={amount > 0 ? "profit" : amount < 0 ? "loss" : "dim"}>
      {profitWord(amount)} {profitSign(amount)}
      {formatMoney(Math.abs(amount))}
    </span>
  );
}
