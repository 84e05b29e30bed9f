/** Bets through the end-user API (/api/user): registered inside playerRoutes, behind its session hook. */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { Amount, type ZodTypeProvider } from "../../plugins/validation.js";
import { playerOf } from "../players/routes.js";
import { BET_MESSAGE, createBetService } from "./service.js";
import { Text } from "./routes.js";

/** A price as quoted: above 1, at most 2 decimals. */
const Price = z
  .number()
  .positive()
  .max(100_000)
  .refine((price) => Math.abs(price * 100 - Math.round(price * 100)) < 1e-6, "must have at most 2 decimals");

const BetBody = z
  .object({
    eventId: Text(64),
    marketId: Text(64),
    runner: Text(128),
    isBack: z.union([z.literal(0), z.literal(1)]),
    price: Price,
    amount: Amount,
    requestId: Text(64).optional(),
  })
  .strict();

const CasinoBetBody = z.object({ providerCode: Text(64), gameCode: Text(64), roundId: Text(64), amount: Amount }).strict();
const GameBetBody = z.object({ gameId: Text(64), roundId: Text(64), runnerName: Text(64), amount: Amount }).strict();

export default async function playerBetRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const bets = createBetService({ db: app.db, book: app.realtime.book });

  api.post("/bet", { schema: { body: BetBody } }, async (request, reply) => {
    return reply.ok(await bets.placeBet(playerOf(request), request.body), BET_MESSAGE.placed);
  });

  api.post("/casino-bet", { schema: { body: CasinoBetBody } }, async (request, reply) => {
    return reply.ok(await bets.placeCasinoBet(playerOf(request), { kind: 1, ...request.body }), BET_MESSAGE.placed);
  });

  api.post("/game-bet", { schema: { body: GameBetBody } }, async (request, reply) => {
    return reply.ok(await bets.placeCasinoBet(playerOf(request), { kind: 2, ...request.body }), BET_MESSAGE.placed);
  });
}
