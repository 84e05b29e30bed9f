/**
 * A book figure as the spec shows it: the absolute value after an arrow, green when the house
 * gains and red otherwise; the arrow and the spoken word say it too, so colour is never alone.
 */
import { formatMoney } from "../../lib/format";

export function BookValue({ value }: { value: number }) {
  const gains = value > 0;
  return (
    <span className={gains ? "profit" : "loss"} aria-label={`${gains ? "gain" : "loss"} ${formatMoney(Math.abs(value))}`}>
      {gains ? "▲" : "▼"} {formatMoney(Math.abs(value))}
    </span>
  );
}

/** A status worth showing: anything but the normal ACTIVE and OPEN (docs/product.md §2.14). */
export function StatusNote({ status }: { status: string }) {
  return status === "ACTIVE" || status === "OPEN" ? null : <span className="pending market-status">{status}</span>;
}
