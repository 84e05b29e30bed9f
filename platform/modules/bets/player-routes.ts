/** Bets through the end-user API (/api/user), behind its session hook. */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { Decimal2, exactIssue, Money, Text } from "../../validation/schemas.js";
import { playerOf } from "../players/access.js";
import { MIN_STAKE_MINOR } from "./arithmetic.js";
import { BET_MESSAGE, createBetService } from "./service.js";

/** A price as quoted (a decimal price, or a fancy run line): above 0, at most 2 decimals. */
const Price = Decimal2({ min: 0, max: 100_000, aboveMin: true });

/** A stake: money of at least MIN_STAKE_MINOR, or 400 `Amount too small` (the whole answer, as `Amount too large` is). */
const Stake = Money.superRefine((minor, ctx) => {
  if (minor < MIN_STAKE_MINOR) ctx.addIssue(exactIssue(BET_MESSAGE.stakeTooSmall));
});

const BetBody = z
  .object({
    eventId: Text({ min: 1, max: 64 }),
    marketId: Text({ min: 1, max: 64 }),
    runner: Text({ min: 1, max: 128 }),
    isBack: z.union([z.literal(0), z.literal(1)]),
    price: Price,
    amount: Stake,
    requestId: Text({ min: 1, max: 64 }).optional(),
  })
  .strict();

const CasinoBetBody = z.object({ providerCode: Text({ min: 1, max: 64 }), gameCode: Text({ min: 1, max: 64 }), roundId: Text({ min: 1, max: 64 }), amount: Stake }).strict();
const GameBetBody = z.object({ gameId: Text({ min: 1, max: 64 }), roundId: Text({ min: 1, max: 64 }), runnerName: Text({ min: 1, max: 64 }), amount: Stake }).strict();

export default async function playerBetRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const bets = createBetService({ db: app.db, book: app.realtime.book, casinoSeedHours: app.config.CASINO_SEED_HOURS });
  // Before the first round can be played, so it finds its seed announced.
  await bets.announceCasinoSeeds();

  api.post("/bet", { schema: { body: BetBody } }, async (request, reply) => {
    return reply.ok(await bets.placeBet(playerOf(request), request.body), BET_MESSAGE.placed);
  });

  api.post("/casino-bet", { schema: { body: CasinoBetBody } }, async (request, reply) => {
    return reply.ok(await bets.placeCasinoBet(playerOf(request), { kind: 1, ...request.body }), BET_MESSAGE.placed);
  });

  /** The fairness record (docs/protocol.md "Casino and game bets"): the active and the next seed's hashes, and the retired seeds. */
  api.get("/casino-seeds", async (_request, reply) => reply.ok(await bets.casinoFairness()));

  api.post("/game-bet", { schema: { body: GameBetBody } }, async (request, reply) => {
    return reply.ok(await bets.placeCasinoBet(playerOf(request), { kind: 2, ...request.body }), BET_MESSAGE.placed);
  });
}
