/**
 * The sports book: placement reserves the exposure through the ledger (user → bet
 * exposure); settlement moves it back, or to the house, plus winnings from the house,
 * exactly once: one conditional update (`status = 'PENDING'`) in the transaction that
 * writes the transfers. Each settlement records the house result per game flag and the
 * partner chain's shares (bet_results) for the reports. Casino and game bets settle when
 * placed, by a provably fair draw with a house edge (casino-draw.ts).
 */
import {
  BET_KIND,
  ROLE,
  SETTLE_BETS_MAX,
  SPORTS,
  type BetStatus,
  type CasinoBet,
  type GameBet,
  type GameFlag,
  type Page,
  type PendingTotals,
  type SettlementCode,
  type SportCode,
  type SportsBet,
  type UserProfit,
} from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import type { MarketType } from "../../db/schema.js";
import { badRequest, conflict, forbidden, notFound } from "../../errors.js";
import { minorToAmount, withinAmountCeiling } from "../../money.js";
import { groupCommit, type Settled } from "../../../db/group-commit.js";
import { pageOf, type PageRequest } from "../../validation/schemas.js";
import type { BookEvents } from "../../realtime.js";
import { findHouseId, isInSubtree } from "../accounts/repository.js";
import type { AdminAccount } from "../admins/repository.js";
import { hasStaffFlag } from "../admins/service.js";
import { applyAll, findSystemAccountId, LEDGER_MESSAGE, type AccountRef, type MoveResult } from "../ledger/service.js";
import type { Player } from "../players/repository.js";
import { addPositions, removePositions, type PositionChange, type PositionKey } from "../sports/book-repository.js";
import { findOffer } from "../sports/repository.js";
import { CASINO_WIN_CHANCE, createCasinoSeeds, drawOf } from "./casino-draw.js";
import { bookOf, exposureOf, settlementOf, winningsOf, type Outcome, type Priced } from "./arithmetic.js";
import {
  countPending,
  countPendingAdded,
  countPendingSettled,
  tallyPending,
  countUserBets,
  findBet,
  findBets,
  findBettor,
  findByRequest,
  findUserAnchor,
  insertCasinoBet,
  insertResults,
  insertSportsBets,
  listPending,
  listUserCasinoBets,
  listUserSportsBets,
  lockSettled,
  lockSettlements,
  markSettled,
  netResult,
  openExposure,
  pendingTotals,
  recordResettlement,
  setResult,
  standingResults,
  type BetRow,
  type CasinoRow,
  type HistoryRange,
  type NewSportsBet,
  type PendingFilter,
} from "./repository.js";
import { metrics } from "../../metrics.js";

export const BET_MESSAGE = {
  placed: "Bet placed successfully",
  settled: "Bet settled successfully!",
  settledMany: (settled: number, of: number) => `${settled} of ${of} bets settled`,
  sentTwice: (id: string) => `settlements: bet ${id} is sent twice`,
  resettled: "Bet resettled successfully",
  alreadySettled: "Bet already settled",
  notSettled: "Bet is not settled yet",
  sameOutcome: "Bet already has that result",
  notFound: "Bet not found",
  userNotFound: "User not found",
  marketNotFound: "Market or runner not found",
  wrongEvent: "eventId: the market belongs to another event",
  marketClosed: "Market is not open",
  priceGone: "price: that price is no longer on offer",
  betDisabled: "Betting is disabled for this account",
  flagOff: (flag: GameFlag) => `${flag} is not enabled for this account`,
  reversalUncovered: "The user's balance cannot cover the reversal",
  roundPlayed: "roundId: that round was already played",
  seedsChanged: "The casino seed changed twice while this round was drawn; nothing was played, play it again",
  requestReused: "requestId was already used for another bet",
  stakeTooSmall: "Amount too small",
} as const;

/** The system account that holds pending bets' exposure (migration 005). */
export const BET_EXPOSURE = "bet-exposure";

/** Statuses the feed marks as normal (docs/product.md §9). */
const OPEN_STATUSES = new Set(["ACTIVE", "OPEN"]);

const OUTCOME: Record<SettlementCode, Outcome> = { 1: "SUCCESS", 2: "FAIL", 3: "ABANDONED" };

/** The game flag a bet is played under: the sport for match odds, else the market type. */
export const gameOf = (sport: number, type: MarketType): GameFlag => (type === "odds" ? SPORTS[sport]! : type);

/** A bet's position in the market book (migration 007): fancy bets by their run line. */
export const positionKeyOf = (bet: { event_id: string; market_id: string; market_type: MarketType; runner: string; price: string; user_id: bigint }): PositionKey => ({
  event_id: bet.event_id,
  market_id: bet.market_id,
  runner: bet.runner,
  line: bet.market_type === "fancy" ? bet.price : "0",
  user_id: bet.user_id,
});
export const positionChangeOf = (bet: Priced & { exposure: bigint }): PositionChange => ({ ...bookOf(bet), stake: bet.amount });

type PositionedBet = Omit<Parameters<typeof positionKeyOf>[0], "market_id"> & { market_id: string | null };

/** Bets' position changes summed per position (one statement may name a key once); bets off any market have none. */
export function positionsOf(bets: { bet: PositionedBet; change: PositionChange }[]): (PositionKey & PositionChange & { bets: bigint })[] {
  const sums = new Map<string, PositionKey & PositionChange & { bets: bigint }>();
  for (const { bet, change } of bets) {
    if (bet.market_id === null) continue;
    const key = positionKeyOf({ ...bet, market_id: bet.market_id });
    const id = JSON.stringify([key.market_id, key.runner, key.line, String(key.user_id)]);
    const held = sums.get(id) ?? { ...key, ifWon: 0n, ifLost: 0n, stake: 0n, bets: 0n };
    sums.set(id, { ...held, ifWon: held.ifWon + change.ifWon, ifLost: held.ifLost + change.ifLost, stake: held.stake + change.stake, bets: held.bets + 1n });
  }
  return [...sums.values()];
}

/** "1.85" → 185n. */
const hundredths = (numeric: string) => BigInt(Math.round(Number(numeric) * 100));

export type PlaceBetInput = {
  eventId: string;
  marketId: string;
  runner: string;
  isBack: 0 | 1;
  price: number;
  amount: bigint;
  /** The player's idempotency key: the same key places one bet, however often it is sent. */
  requestId?: string;
};
export type CasinoBetInput =
  | { kind: 1; providerCode: string; gameCode: string; roundId: string; amount: bigint }
  | { kind: 2; runnerName: string; gameId: string; roundId: string; amount: bigint };

/** The accounts every placement and settlement moves money between: the house and the bet exposure account. */
export type BetAccounts = { house: AccountRef; exposure: AccountRef };
type Accounts = BetAccounts;

export async function findBetAccounts(db: Db): Promise<BetAccounts> {
  return { house: { kind: "admin", id: await findHouseId(db) }, exposure: { kind: "system", id: await findSystemAccountId(db, BET_EXPOSURE) } };
}

const pricedOf = (row: { market_type: MarketType; is_back: boolean; amount: bigint; price: string; odds: string | null; exposure: bigint }) => ({
  type: row.market_type,
  isBack: row.is_back,
  amount: row.amount,
  x: hundredths(row.price),
  odds: hundredths(row.odds ?? row.price),
  exposure: row.exposure,
});

/**
 * Writes sports bets inside the caller's transaction: the one way a bet enters the book, for
 * the end-user API and the demo seed alike. Open bets are counted as pending, added to the
 * market book, and their exposure moved from the bettor to the exposure account (one transfer
 * each, `bet <id>`); a bet written as settled history (the seed's) records its result for the
 * reports and moves no money. Answers the ids in order and the open bets' moves.
 */
export async function writeSportsBets(
  trx: Db,
  bets: (Omit<NewSportsBet, "status" | "profit" | "loss"> & { status?: BetStatus })[],
  { house, exposure }: BetAccounts,
): Promise<{ ids: bigint[]; moved: MoveResult[] }> {
  const planned = bets.map((bet) => {
    const priced = pricedOf(bet);
    const outcome = bet.status === undefined || bet.status === "PENDING" ? null : bet.status;
    return { bet, priced, outcome, result: outcome === null ? null : settlementOf(priced, outcome) };
  });
  const ids = await insertSportsBets(trx, planned.map(({ bet, result }) => (result ? { ...bet, profit: result.profit, loss: result.loss } : bet)));
  const written = planned.map((plan, k) => ({ ...plan, id: ids[k]! }));
  const open = written.filter((plan) => plan.result === null);
  await countPendingAdded(trx, tallyPending(open.map(({ bet }) => bet)));
  await addPositions(trx, positionsOf(open.map(({ bet, priced }) => ({ bet, change: positionChangeOf(priced) }))));
  await insertResults(
    trx,
    written.flatMap(({ bet, id, result }) =>
      result ? [{ betKind: "sports" as const, betId: id, game: gameOf(bet.sport, bet.market_type), userId: bet.user_id, houseResult: result.houseResult }] : [],
    ),
  );
  const moved = await applyAll(
    trx,
    // The platform acts for the user: transfers nobody on the desk made name the house.
    open.map(({ bet, id }) => ({ kind: "bet-place", actorId: house.id, remark: `bet ${id}`, from: { kind: "user", id: bet.user_id }, to: exposure, amount: bet.exposure })),
  );
  return { ids, moved };
}
type Move = { kind: "bet-settle" | "bet-win"; from: AccountRef; to: AccountRef; amount: bigint };

/** One `/settel-bet` call: who settles which bet how. */
type SettleOrder = { caller: AdminAccount; betId: bigint; code: SettlementCode };

/**
 * Concurrent settlements joined into one transaction: at most this many, a whole `/settle-bets`
 * call (the console keeps four calls of 50 in flight, or 24 `/settel-bet` calls to an API without it).
 */
const SETTLEMENT_BATCH = SETTLE_BETS_MAX;

export function createBetService({ db, book, casinoSeedHours }: { db: Db; book: BookEvents; casinoSeedHours: number }) {
  const seeds = createCasinoSeeds(db, { rotationHours: casinoSeedHours });
  // Read before a transaction starts: on PGlite a query outside it would wait for it forever.
  let accounts: Promise<Accounts> | undefined;
  const accountsOf = () =>
    (accounts ??= findBetAccounts(db).catch((error: unknown) => {
      accounts = undefined;
      throw error;
    }));

  /** The transfers an outcome makes: exposure back (won, void) or to the house (lost), winnings from the house. */
  function movesOf(bet: Priced & { exposure: bigint }, outcome: Outcome, userId: bigint, { house, exposure }: Accounts): Move[] {
    const user: AccountRef = { kind: "user", id: userId };
    const moves: Move[] = [{ kind: "bet-settle", from: exposure, to: outcome === "FAIL" ? house : user, amount: bet.exposure }];
    if (outcome === "SUCCESS") moves.push({ kind: "bet-win", from: house, to: user, amount: winningsOf(bet) });
    return moves.filter((move) => move.amount > 0n);
  }

  type Placed = { _id: string; balance: number; exposure: number };

  /** The answer to a placement retried under its request id: the first bet, as things stand now. */
  async function replayPlacement(player: Player, input: PlaceBetInput): Promise<Placed | undefined> {
    if (input.requestId === undefined) return undefined;
    const found = await findByRequest(db, player.id, input.requestId);
    if (!found) return undefined;
    const same =
      found.event_id === input.eventId &&
      found.market_id === input.marketId &&
      found.runner === input.runner &&
      found.is_back === (input.isBack === 1) &&
      hundredths(found.price) === BigInt(Math.round(input.price * 100)) &&
      found.amount === input.amount;
    if (!same) throw conflict(BET_MESSAGE.requestReused);
    const user = await findUserAnchor(db, player.id);
    return { _id: String(found.id), balance: minorToAmount(user!.balance), exposure: minorToAmount(await openExposure(db, player.id)) };
  }

  async function placeBet(player: Player, input: PlaceBetInput): Promise<Placed> {
    const replayed = await replayPlacement(player, input);
    if (replayed) return replayed;
    try {
      return await placeNewBet(player, input);
    } catch (error) {
      // A concurrent placement under the same request id committed first.
      if ((error as { code?: unknown }).code !== "23505") throw error;
      const raced = await replayPlacement(player, input);
      if (!raced) throw error;
      return raced;
    }
  }

  async function placeNewBet(player: Player, input: PlaceBetInput): Promise<Placed> {
    const offer = await findOffer(db, input.marketId, input.runner);
    if (!offer) throw notFound(BET_MESSAGE.marketNotFound);
    if (offer.event_id !== input.eventId) throw notFound(BET_MESSAGE.wrongEvent);
    const game = gameOf(offer.sport, offer.type);
    const bettor = await findBettor(db, player.id);
    if (!bettor) throw notFound(BET_MESSAGE.userNotFound);
    if (!bettor.bet_enabled) throw forbidden(BET_MESSAGE.betDisabled);
    if (bettor.permissions[game] !== true) throw forbidden(BET_MESSAGE.flagOff(game));
    if (![offer.event_status, offer.market_status, offer.runner_status].every((status) => OPEN_STATUSES.has(status))) {
      throw conflict(BET_MESSAGE.marketClosed);
    }
    const isBack = input.isBack === 1;
    const quotedPrice = isBack ? offer.back_price : offer.lay_price;
    const quotedSize = isBack ? offer.back_size : offer.lay_size;
    if (quotedPrice === null || hundredths(quotedPrice) !== BigInt(Math.round(input.price * 100))) throw conflict(BET_MESSAGE.priceGone);
    // Fancy lines quote the rate per 100 as the size; odds and bookmaker bets pay the price.
    const odds = offer.type === "fancy" ? quotedSize : quotedPrice;
    if (odds === null) throw conflict(BET_MESSAGE.priceGone);
    const priced: Priced = { type: offer.type, isBack, amount: input.amount, x: hundredths(quotedPrice), odds: hundredths(odds) };
    const exposure = exposureOf(priced);
    // A quote no stake can risk anything on (a fancy rate of 0): refused here, before the ledger's non-zero check.
    if (exposure <= 0n) throw badRequest(BET_MESSAGE.stakeTooSmall);
    // Refused now, not when it wins: a bet whose winnings pass the ceiling could never be settled as won.
    withinAmountCeiling(winningsOf(priced));
    const accounts = await accountsOf();

    const placed = await db.transaction().execute(async (trx) => {
      const bet = {
        user_id: player.id,
        sport: offer.sport,
        event_id: offer.event_id,
        market_id: offer.market_id,
        market: offer.market_name,
        market_type: offer.type,
        runner: offer.runner,
        is_back: isBack,
        price: quotedPrice,
        odds,
        amount: input.amount,
        exposure,
        request_id: input.requestId ?? null,
      };
      const { ids, moved } = await writeSportsBets(trx, [bet], accounts);
      return { id: ids[0]!, balance: moved[0]!.from, open: await openExposure(trx, player.id) };
    });
    book.marketUpdate(offer.event_id);
    return { _id: String(placed.id), balance: minorToAmount(placed.balance), exposure: minorToAmount(placed.open) };
  }

  /**
   * Settles the orders' bets in one transaction, each exactly once: read the bets, work out
   * every result and transfer, then the conditional update (`status = 'PENDING'`) lets through
   * the bets still pending, and only those move money. Each order gets its bet or its own error.
   */
  async function settleTogether(orders: SettleOrder[]): Promise<Settled<SportsBet>[]> {
    const accounts = await accountsOf();
    const rows = new Map((await findBets(db, orders.map((order) => order.betId))).map((row) => [row.id, row]));
    const plans = orders.map((order) => {
      const bet = rows.get(order.betId);
      if (!bet) return { order, error: notFound(BET_MESSAGE.notFound) };
      if (bet.status !== "PENDING") return { order, error: conflict(BET_MESSAGE.alreadySettled) };
      const outcome = OUTCOME[order.code];
      const priced = pricedOf(bet);
      return { order, bet, outcome, priced, result: settlementOf(priced, outcome) };
    });
    const ready = plans.filter((plan) => plan.bet !== undefined);
    const settledAt = await db.transaction().execute(async (trx) => {
      await lockSettlements(trx);
      const gated = await markSettled(
        trx,
        ready.map(({ bet, outcome, result, order }) => ({ id: bet.id, status: outcome, profit: result.profit, loss: result.loss, settledBy: order.caller.id })),
      );
      const at = new Map(gated.map((row) => [row.id, row.settled_at]));
      const done = ready.filter((plan) => at.has(plan.bet.id));
      await countPendingSettled(trx, tallyPending(done.map(({ bet }) => bet)));
      await removePositions(trx, positionsOf(done.map(({ bet, priced }) => ({ bet, change: positionChangeOf(priced) }))));
      await applyAll(
        trx,
        done.flatMap(({ bet, outcome, priced, order }) =>
          movesOf(priced, outcome, bet.user_id, accounts).map((move) => ({ ...move, actorId: order.caller.id, remark: `bet ${bet.id}` })),
        ),
      );
      await insertResults(
        trx,
        done.map(({ bet, result }) => ({ betKind: "sports", betId: bet.id, game: gameOf(bet.sport, bet.market_type), userId: bet.user_id, houseResult: result.houseResult })),
      );
      return at;
    });
    for (const plan of ready) if (settledAt.has(plan.bet.id)) metrics.betsSettled.inc({ outcome: plan.outcome });
    // Built from what was read and written: nothing after the commit may fail the call.
    return plans.map((plan): Settled<SportsBet> => {
      if (plan.bet === undefined) return { ok: false, error: plan.error };
      const at = settledAt.get(plan.bet.id);
      if (at === undefined) return { ok: false, error: conflict(BET_MESSAGE.alreadySettled) };
      return { ok: true, value: toSportsBet({ ...plan.bet, status: plan.outcome, profit: plan.result.profit, loss: plan.result.loss, settled_at: at }) };
    });
  }

  /** A batch that fails as a whole (a balance ceiling, say) is settled bet by bet, so that only the culprit fails. */
  async function settleBatch(orders: SettleOrder[]): Promise<Settled<SportsBet>[]> {
    let outcomes: Settled<SportsBet>[];
    try {
      outcomes = await settleTogether(orders);
    } catch (error) {
      if (orders.length === 1) return [{ ok: false, error }];
      outcomes = [];
      for (const order of orders) outcomes.push(...(await settleBatch([order])));
    }
    const events = new Set<string>();
    for (const outcome of outcomes) {
      if (!outcome.ok) continue;
      book.betSettled({ _id: outcome.value._id, eventId: outcome.value.eventId });
      events.add(outcome.value.eventId);
    }
    for (const eventId of events) book.marketUpdate(eventId);
    return outcomes;
  }

  /**
   * `/settel-bet`: settles one bet exactly once. Calls that arrive while a settlement is being
   * written are written together next (group commit): one transaction and a few statements
   * for the lot, which is what lets a desk settle a 1,000-bet market in seconds on PGlite.
   */
  const settleOne = groupCommit(settleBatch, { keyOf: (order) => String(order.betId), maxBatch: SETTLEMENT_BATCH });
  const settle = (caller: AdminAccount, betId: bigint, code: SettlementCode): Promise<SportsBet> => settleOne({ caller, betId, code });
  /** `/settle-bets`: each bet settled as `settle` would, together; each answered on its own, in order. */
  const settleMany = (caller: AdminAccount, settlements: readonly { betId: bigint; code: SettlementCode }[]) =>
    Promise.allSettled(settlements.map(({ betId, code }) => settleOne({ caller, betId, code })));

  /** Super admin only (the route checks): undoes a settlement with compensating transfers, then applies the new outcome. */
  async function resettle(caller: AdminAccount, betId: bigint, code: SettlementCode): Promise<SportsBet> {
    const outcome = OUTCOME[code];
    const accounts = await accountsOf();
    const resettled = await db.transaction().execute(async (trx) => {
      const bet = await lockSettled(trx, betId);
      if (!bet) throw notFound(BET_MESSAGE.notFound);
      if (bet.status === "PENDING") throw conflict(BET_MESSAGE.notSettled);
      if (bet.status === outcome) throw conflict(BET_MESSAGE.sameOutcome);
      const priced = pricedOf(bet);
      const remark = `bet ${betId} resettled`;

      const undo = movesOf(priced, bet.status as Outcome, bet.user_id, accounts).reverse();
      try {
        await applyAll(trx, undo.map((move) => ({ kind: "bet-resettle", from: move.to, to: move.from, amount: move.amount, actorId: caller.id, remark })));
      } catch (error) {
        if ((error as Error).message === LEDGER_MESSAGE.insufficientBalance) throw conflict(BET_MESSAGE.reversalUncovered);
        throw error;
      }
      const standing = await standingResults(trx, betId);
      const game = gameOf(bet.sport, bet.market_type);
      const result = settlementOf(priced, outcome);
      await setResult(trx, betId, { ...result, status: outcome, settledBy: caller.id });
      await applyAll(trx, movesOf(priced, outcome, bet.user_id, accounts).map((move) => ({ ...move, actorId: caller.id, remark })));
      const reversal = standing.map((row) => ({ betKind: "sports" as const, betId, ...row, houseResult: -row.houseResult }));
      await insertResults(trx, [...reversal, { betKind: "sports", betId, game, userId: bet.user_id, houseResult: result.houseResult }]);
      await recordResettlement(trx, {
        betId,
        actorId: caller.id,
        before: { status: bet.status, profit: bet.profit, loss: bet.loss },
        after: { status: outcome, profit: result.profit, loss: result.loss },
      });
      return toSportsBet((await findBet(trx, betId))!);
    });
    book.betSettled({ _id: resettled._id, eventId: resettled.eventId });
    book.marketUpdate(resettled.eventId);
    return resettled;
  }

  function pending(filter: PendingFilter, paging: PageRequest): Promise<Page<SportsBet>> {
    return pageOf(paging, async (slice) => (await listPending(db, filter, slice)).map(toSportsBet), () => countPending(db, filter));
  }

  /** The queue's totals for the filter (`?totals=1`), amounts in the wire's units. */
  async function pendingTotalsOf(filter: PendingFilter): Promise<PendingTotals> {
    const { all, markets } = await pendingTotals(db, filter);
    return {
      ...sumsOf(all),
      markets: markets.map((row) => ({
        eventId: row.event_id,
        event: row.team_a && row.team_b ? `${row.team_a} v ${row.team_b}` : row.event_id,
        marketId: row.market_id ?? "",
        market: row.market,
        ...sumsOf(row),
      })),
    };
  }

  /** A user's bets are visible to the super admin, staff with `bets`, and partners above the user. */
  async function assertMayView(caller: AdminAccount, userId: bigint) {
    const user = await findUserAnchor(db, userId);
    if (!user) throw notFound(BET_MESSAGE.userNotFound);
    if (caller.role === ROLE.partner ? !(await isInSubtree(db, caller.id, user.parent_id)) : !hasStaffFlag(caller, "bets")) throw forbidden();
    return user;
  }

  async function userBets(
    caller: AdminAccount,
    query: HistoryRange & PageRequest & { type: 0 | 1 | 2 },
  ): Promise<Page<SportsBet | CasinoBet | GameBet>> {
    await assertMayView(caller, query.userId);
    const kind = query.type;
    if (kind === BET_KIND.sports) {
      return pageOf<SportsBet | CasinoBet | GameBet>(query, async (slice) => (await listUserSportsBets(db, query, slice)).map(toSportsBet), () => countUserBets(db, "sports_bets", query));
    }
    return pageOf(query, async (slice) => (await listUserCasinoBets(db, kind, query, slice)).map(toCasinoOrGame), () => countUserBets(db, "casino_bets", query, kind));
  }

  async function userProfit(caller: AdminAccount, userId: bigint): Promise<UserProfit> {
    const user = await assertMayView(caller, userId);
    return { profit: minorToAmount(await netResult(db, userId)), balance: minorToAmount(user.balance) };
  }

  /** Casino (kind 1) and game (kind 2) bets: stake to the house, and on a win twice the stake back, in one transaction. */
  async function placeCasinoBet(player: Player, input: CasinoBetInput): Promise<{ bet: CasinoBet | GameBet; balance: number; seedHash: string }> {
    const bettor = await findBettor(db, player.id);
    if (!bettor) throw notFound(BET_MESSAGE.userNotFound);
    if (!bettor.bet_enabled) throw forbidden(BET_MESSAGE.betDisabled);
    if (bettor.permissions.casino !== true) throw forbidden(BET_MESSAGE.flagOff("casino"));
    // A win pays twice the stake: refused before the draw, so the outcome never decides whether the bet stands.
    withinAmountCeiling(2n * input.amount);
    const gameCode = input.kind === 1 ? input.gameCode : input.gameId;
    // The round draws only with a seed whose hash was published before the round began.
    const seed = await seeds.seedForRound();
    if (!seed) throw conflict(BET_MESSAGE.seedsChanged);
    const won = drawOf(seed.seed, { userId: player.id, kind: input.kind, gameCode, roundId: input.roundId }) < CASINO_WIN_CHANCE;
    const { house } = await accountsOf();
    const user: AccountRef = { kind: "user", id: player.id };
    try {
      const { row, balance } = await db.transaction().execute(async (trx) => {
        const row = await insertCasinoBet(trx, {
          kind: input.kind,
          user_id: player.id,
          provider_code: input.kind === 1 ? input.providerCode : null,
          game_code: gameCode,
          runner_name: input.kind === 2 ? input.runnerName : null,
          round_id: input.roundId,
          amount: input.amount,
          status: won ? "SUCCESS" : "FAIL",
          profit: won ? input.amount : 0n,
          loss: won ? 0n : input.amount,
          seed_id: seed.id,
        });
        const remark = `casino bet ${row.id}`;
        const stake = { kind: "casino-stake", actorId: house.id, remark, from: user, to: house, amount: input.amount } as const;
        const win = { kind: "casino-win", actorId: house.id, remark, from: house, to: user, amount: 2n * input.amount } as const;
        const [staked, paid] = await applyAll(trx, won ? [stake, win] : [stake]);
        await insertResults(trx, [{ betKind: "casino", betId: row.id, game: "casino", userId: player.id, houseResult: won ? -input.amount : input.amount }]);
        return { row, balance: paid ? paid.to : staked!.from };
      });
      return { bet: toCasinoOrGame(row), balance: minorToAmount(balance), seedHash: seed.seedHash };
    } catch (error) {
      if ((error as { code?: unknown }).code === "23505") throw conflict(BET_MESSAGE.roundPlayed);
      throw error;
    }
  }

  return { placeBet, settle, settleMany, resettle, pending, pendingTotals: pendingTotalsOf, userBets, userProfit, placeCasinoBet, casinoFairness: seeds.fairness, announceCasinoSeeds: seeds.announceMissing };
}

const sumsOf = ({ n, stake, exposure }: { n: bigint; stake: bigint; exposure: bigint }) => ({
  count: Number(n),
  stake: minorToAmount(stake),
  exposure: minorToAmount(exposure),
});

export function toSportsBet(row: NonNullable<BetRow>): SportsBet {
  const sport = row.sport as SportCode;
  return {
    _id: String(row.id),
    sport,
    sportName: SPORTS[sport],
    userId: String(row.user_id),
    username: row.username,
    eventId: row.event_id,
    event: row.team_a && row.team_b ? `${row.team_a} v ${row.team_b}` : row.event_id,
    marketId: row.market_id,
    market: row.market,
    type: row.market_type as MarketType,
    runner: row.runner,
    isBack: row.is_back ? 1 : 0,
    amount: minorToAmount(row.amount),
    x: Number(row.price),
    odds: Number(row.odds ?? row.price),
    exposure: minorToAmount(row.exposure),
    status: row.status as BetStatus,
    profit: minorToAmount(row.profit),
    loss: minorToAmount(row.loss),
    createdAt: row.created_at.toISOString(),
    settledAt: row.settled_at?.toISOString() ?? null,
  };
}

export function toCasinoOrGame(row: CasinoRow): CasinoBet | GameBet {
  const common = {
    _id: String(row.id),
    roundId: row.round_id,
    amount: minorToAmount(row.amount),
    status: row.status,
    profit: minorToAmount(row.profit),
    loss: minorToAmount(row.loss),
    createdAt: row.created_at.toISOString(),
  };
  return row.kind === 1
    ? { ...common, providerCode: row.provider_code ?? "", gameCode: row.game_code }
    : { ...common, runnerName: row.runner_name ?? "", gameId: row.game_code };
}
