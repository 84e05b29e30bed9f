/**
 * The sports book's money rules (PROTOCOL.md "Bets"), in minor units. Prices and rates
 * are hundredths (1.85 → 185n), so every product is exact and rounds once, half up.
 */
import type { MarketType } from "../../db/schema.js";

export type Priced = { type: MarketType; isBack: boolean; amount: bigint; x: bigint; odds: bigint };

export type Outcome = "SUCCESS" | "FAIL" | "ABANDONED";

/** `minor × hundredths / 100` rounded half up (both non-negative): a stake times a price. */
const times = (minor: bigint, hundredths: bigint) => (minor * hundredths + 50n) / 100n;
/** `minor × hundredths / 10,000` rounded half up: a stake times a rate per 100. */
const perHundred = (minor: bigint, hundredths: bigint) => (minor * hundredths + 5_000n) / 10_000n;

/** What placement reserves: back and fancy yes the stake; lay stake × (x − 1); fancy no stake × rate / 100. */
export function exposureOf(bet: Priced): bigint {
  if (bet.isBack) return bet.amount;
  return bet.type === "fancy" ? perHundred(bet.amount, bet.odds) : times(bet.amount, bet.x - 100n);
}

/** What a won bet earns from the house: back stake × (x − 1); fancy yes stake × rate / 100; lay and fancy no the stake. */
export function winningsOf(bet: Priced): bigint {
  if (!bet.isBack) return bet.amount;
  return bet.type === "fancy" ? perHundred(bet.amount, bet.odds) : times(bet.amount, bet.x - 100n);
}

/** The bet's profit and loss after `outcome`, and what the house gained (negative: the user won). */
export function settlementOf(bet: Priced & { exposure: bigint }, outcome: Outcome) {
  if (outcome === "SUCCESS") {
    const winnings = winningsOf(bet);
    return { profit: winnings, loss: 0n, houseResult: -winnings };
  }
  if (outcome === "FAIL") return { profit: 0n, loss: bet.exposure, houseResult: bet.exposure };
  return { profit: 0n, loss: 0n, houseResult: 0n };
}

/**
 * What an open bet means for the house's book, from the settlement rules above: `ifWon` when
 * its runner wins (fancy: the innings reaches the bet's line), `ifLost` otherwise. A back or
 * yes bet wins with its runner; a lay or no bet loses with it.
 */
export function bookOf(bet: Priced & { exposure: bigint }): { ifWon: bigint; ifLost: bigint } {
  const betWins = settlementOf(bet, "SUCCESS").houseResult;
  const betLoses = settlementOf(bet, "FAIL").houseResult;
  return bet.isBack ? { ifWon: betWins, ifLost: betLoses } : { ifWon: betLoses, ifLost: betWins };
}
