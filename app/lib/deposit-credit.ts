/**
 * What approving a deposit request credits, in INR (docs/protocol.md "Deposit success"): the
 * amount, times the value of 1 USDT for a USDT request, plus the main bonus, the bonus and the
 * coupon's percentage, each rounded half up to the paisa as the platform does. Four-eyes compares
 * this figure with its thresholds, and the confirmation shows it.
 * Browser-safe: the approval dialog computes it as the operator types.
 */
import { DEPOSIT_TYPE, type DepositDecision, type DepositType } from "../../protocol/wire";

type Bonuses = Pick<DepositDecision, "inr" | "mainInrBonus" | "mainPrnBonus" | "inrBonus" | "prnBonus">;

/** Paise (or hundredths of a percent), exact: products of two amounts exceed a double's integers. */
const hundredths = (value: number) => BigInt(Math.round(value * 100));

/** `paise × percent`, half up, as the platform's percentOf. */
const percentOf = (paise: bigint, percent: number) => (paise * hundredths(percent) + 5_000n) / 10_000n;

/** 0 counts as not given (docs/protocol.md): the INR bonus of a pair, else its percentage. */
const bonusOf = (credited: bigint, inr: number | undefined, percent: number | undefined) =>
  inr ? hundredths(inr) : percent ? percentOf(credited, percent) : 0n;

/**
 * The INR a successful decision credits, or null when it cannot be known: a USDT request without
 * the value of 1 USDT. `couponPercent` is the request's coupon's bonus (0 for none, or a code the
 * API does not know).
 */
export function depositCredit(request: { amount: number; type?: DepositType }, decision: Bonuses, couponPercent: number): number | null {
  let credited = hundredths(request.amount);
  if (request.type === DEPOSIT_TYPE.usdt) {
    if (!decision.inr) return null;
    credited = (credited * hundredths(decision.inr) + 50n) / 100n;
  }
  const total =
    credited +
    bonusOf(credited, decision.mainInrBonus, decision.mainPrnBonus) +
    bonusOf(credited, decision.inrBonus, decision.prnBonus) +
    percentOf(credited, couponPercent);
  return Number(total) / 100;
}
