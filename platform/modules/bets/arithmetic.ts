/**
 * The sports book's money rules (docs/protocol.md "Sports book"), in minor
 * units. Prices and rates are hundredths (1.85 → 185n), so every product is exact and rounds
 * once, in the house's favour: what the player risks rounds up, what the player wins rounds down.
 */
import type { MarketType } from "../../db/schema.js";

export type Priced = { type: MarketType; isBack: boolean; amount: bigint; x: bigint; odds: bigint };

export type Outcome = "SUCCESS" | "FAIL" | "ABANDONED";

/**
 * The smallest stake of any bet, sports, casino or game: 1.00. With it, and prices of at least
 * 1.01 and rates of at least 1, no exposure or winnings rounds to nothing.
 */
export const MIN_STAKE_MINOR = 100n;

/** `stake × hundredths / scale` (both non-negative), rounded down or up. */
const down = (minor: bigint, hundredths: bigint, scale: bigint) => (minor * hundredths) / scale;
const up = (minor: bigint, hundredths: bigint, scale: bigint) => (minor * hundredths + scale - 1n) / scale;

/** The player's side of a bet: back and fancy yes risk the stake; lay stake × (x − 1), fancy no stake × rate / 100. */
const sideOf = (bet: Priced, round: typeof down) => (bet.type === "fancy" ? round(bet.amount, bet.odds, 10_000n) : round(bet.amount, bet.x - 100n, 100n));

/** What placement reserves, rounded up: back and fancy yes the stake; lay stake × (x − 1); fancy no stake × rate / 100. */
export function exposureOf(bet: Priced): bigint {
  return bet.isBack ? bet.amount : sideOf(bet, up);
}

/** What a won bet earns from the house, rounded down: back stake × (x − 1); fancy yes stake × rate / 100; lay and fancy no the stake. */
export function winningsOf(bet: Priced): bigint {
  return bet.isBack ? sideOf(bet, down) : bet.amount;
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
