/** Number and money display: 2 decimals, grouped the way Indian operators read amounts. */
const money = new Intl.NumberFormat("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatBalance(balance: number | "unlimited"): string {
  return balance === "unlimited" ? "unlimited" : money.format(balance);
}
