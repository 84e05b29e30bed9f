/**
 * The money ledger. Every balance change is a transfer whose legs (ledger_entries) are
 * written in the same transaction as the balances they change, so for every account
 * balance = sum of its entries, and every transfer's legs sum to zero. The house (the
 * super admin's account) funds deposits and may go negative; no other account may.
 */
import { conflict } from "../../errors.js";
import { assertWithinBalanceCeiling, withinAmountCeiling } from "../../money.js";
import type { Db } from "../../db/index.js";
import type { TransferKind } from "../../db/schema.js";
import { findTransferByRequest, lockAccounts, writeTransfers, type AccountRef, type Leg, type NewTransfer } from "./repository.js";

export type { AccountRef } from "./repository.js";
export { findSystemAccountId } from "./repository.js";

export const LEDGER_MESSAGE = {
  insufficientBalance: "Insufficient balance",
  requestReused: "requestId was already used for another request",
} as const;

export type MoveInput = {
  kind: Exclude<TransferKind, "opening">;
  actorId: bigint;
  /** The client's idempotency key: a second move with the same (actor, requestId) replays the first. */
  requestId?: string;
  remark: string;
  from: AccountRef;
  to: AccountRef;
  /** Minor units, > 0. */
  amount: bigint;
};

/** Balances after the move (or after the original move, on a replay). */
export type MoveResult = { from: bigint; to: bigint };

const sameAccount = (a: AccountRef, b: AccountRef) => a.kind === b.kind && a.id === b.id;

// PostgreSQL's unique_violation: a concurrent request with the same id committed first.
const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === "23505";

/** Moves `amount` from `from` to `to` exactly once per (actor, requestId). */
export async function move(db: Db, input: MoveInput): Promise<MoveResult> {
  try {
    return await db.transaction().execute(async (trx) => (await replay(trx, input)) ?? (await apply(trx, input)));
  } catch (error) {
    if (!isUniqueViolation(error) || input.requestId === undefined) throw error;
    const replayed = await replay(db, input);
    if (!replayed) throw error;
    return replayed;
  }
}

async function replay(db: Db, input: MoveInput): Promise<MoveResult | undefined> {
  if (input.requestId === undefined) return undefined;
  const found = await findTransferByRequest(db, input.actorId, input.requestId);
  if (!found) return undefined;
  const from = found.legs.find((leg) => leg.amount < 0n);
  const to = found.legs.find((leg) => leg.amount > 0n);
  if (found.kind !== input.kind || !from || !to || !sameAccount(from, input.from) || !sameAccount(to, input.to) || to.amount !== input.amount) {
    throw conflict(LEDGER_MESSAGE.requestReused);
  }
  return { from: from.balanceAfter, to: to.balanceAfter };
}

/**
 * One transfer inside the caller's transaction. It records a request id but never replays one
 * (`move` does): for callers whose own conditional update makes the whole transaction happen once.
 */
export async function apply(trx: Db, input: MoveInput): Promise<MoveResult> {
  return (await applyAll(trx, [input]))[0]!;
}

/**
 * Transfers in order inside the caller's transaction, in two statements however many there
 * are: lock every account, then write the balances and the transfers. Each transfer is checked
 * against the balances the earlier ones left, before anything is written, so a refused one
 * rolls the transaction back whole.
 */
export async function applyAll(trx: Db, inputs: MoveInput[]): Promise<MoveResult[]> {
  if (inputs.length === 0) return [];
  for (const input of inputs) withinAmountCeiling(input.amount);
  const locked = await lockAccounts(trx, inputs.flatMap((input) => [input.from, input.to]));
  const accounts = new Map(locked.map((account) => [keyOf(account), { ...account }]));
  const accountOf = (ref: AccountRef) => {
    const account = accounts.get(keyOf(ref));
    if (!account) throw new Error("move: an account vanished while locked");
    return account;
  };
  const transfers: NewTransfer[] = inputs.map((input) => {
    const [from, to] = [accountOf(input.from), accountOf(input.to)];
    from.balance -= input.amount;
    to.balance += input.amount;
    if (from.balance < 0n && !from.isHouse) throw conflict(LEDGER_MESSAGE.insufficientBalance);
    assertWithinBalanceCeiling(from.balance);
    assertWithinBalanceCeiling(to.balance);
    return {
      kind: input.kind,
      actorId: input.actorId,
      requestId: input.requestId,
      remark: input.remark,
      legs: [
        { ...input.from, amount: -input.amount, balanceAfter: from.balance },
        { ...input.to, amount: input.amount, balanceAfter: to.balance },
      ],
    };
  });
  await writeTransfers(trx, [...accounts.values()], transfers);
  return transfers.map(({ legs: [from, to] }) => ({ from: from!.balanceAfter, to: to!.balanceAfter }));
}

const keyOf = (ref: AccountRef) => `${ref.kind}:${ref.id}`;

/**
 * Records the opening balances of accounts just inserted holding them: one transfer from
 * the house whose legs credit each account and debit the house by the total.
 */
export async function recordOpenings(
  trx: Db,
  houseId: bigint,
  accounts: (AccountRef & { balance: bigint })[],
): Promise<void> {
  const funded = accounts.filter((account) => account.balance !== 0n);
  if (funded.length === 0) return;
  const house = await lockHouse(trx, houseId);
  const legs: Leg[] = funded.map((account) => ({ kind: account.kind, id: account.id, amount: account.balance, balanceAfter: account.balance }));
  await writeOpening(trx, house, legs, []);
}

/**
 * Credits existing accounts from the house in one opening transfer: the demo seed hands its
 * bettors the exposure their open bets then reserve, so their balances stay as seeded.
 */
export async function fundFromHouse(trx: Db, houseId: bigint, credits: (AccountRef & { amount: bigint })[]): Promise<void> {
  if (credits.length === 0) return;
  const house = await lockHouse(trx, houseId);
  const locked = new Map((await lockAccounts(trx, credits)).map((account) => [keyOf(account), account.balance]));
  const legs: Leg[] = credits.map((credit) => ({ kind: credit.kind, id: credit.id, amount: credit.amount, balanceAfter: locked.get(keyOf(credit))! + credit.amount }));
  await writeOpening(trx, house, legs, legs.map((leg) => ({ kind: leg.kind, id: leg.id, balance: leg.balanceAfter })));
}

async function lockHouse(trx: Db, houseId: bigint): Promise<AccountRef & { balance: bigint }> {
  const [locked] = await lockAccounts(trx, [{ kind: "admin", id: houseId }]);
  if (!locked) throw new Error("opening: no house account");
  return locked;
}

/** The opening transfer of `legs` from the house, with the credited accounts' new `balances` (none when they already hold them). */
async function writeOpening(trx: Db, house: AccountRef & { balance: bigint }, legs: Leg[], balances: (AccountRef & { balance: bigint })[]): Promise<void> {
  if (legs.length === 0) return;
  const total = legs.reduce((sum, leg) => sum + leg.amount, 0n);
  const houseAfter = house.balance - total;
  const debit: Leg = { kind: house.kind, id: house.id, amount: -total, balanceAfter: houseAfter };
  await writeTransfers(trx, [...balances, { kind: house.kind, id: house.id, balance: houseAfter }], [{ kind: "opening", actorId: house.id, legs: [...legs, debit] }]);
}
