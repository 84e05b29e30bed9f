/**
 * The end-user API under /api/user (PROTOCOL.md "End-user API"): what simulators and tests
 * use to act as players. Protected by default, like the admin API, with its own sessions
 * (PLAYER_SESSIONS, registered on the scope in app.ts).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { unauthorized } from "../../errors.js";
import type { TokenAuth } from "../../plugins/auth.js";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { blankless, Money, Text } from "../../validation/schemas.js";
import { clientOf, LoginBody } from "../auth/routes.js";
import playerBetRoutes from "../bets/player-routes.js";
import { createRequestService, REQUEST_MESSAGE } from "../requests/service.js";
import { IMAGE_MAX_BYTES } from "../requests/uploads.js";
import { createPlayerService, signedInPlayer, toMe, type Player } from "./service.js";

export const USER_API_PREFIX = "/api/user";
export const USER_NOT_FOUND = "User not found";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in end user under /api/user; null on routes with `config: { auth: false }`. */
    player: Player | null;
  }
}

/** The end-user scope's auth (plugins/auth.ts, registered in app.ts): end-user sessions. */
export const PLAYER_SESSIONS: TokenAuth<"player"> = { property: "player", lookup: signedInPlayer, refusal: USER_NOT_FOUND };

const DepositRequestBody = z.object({
  amount: Money,
  type: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  utr: Text({ min: 1, max: 128 }),
  couponCode: blankless(
    z
      .string()
      .trim()
      .max(32)
      .regex(/^[A-Za-z0-9_-]+$/, "Invalid coupon code")
      .transform((code) => code.toUpperCase())
      .optional(),
  ),
  // A data URL; its type and size are checked on its bytes (requests/uploads.ts).
  image: blankless(z.string().optional()),
});

const WithdrawRequestBody = z.object({
  amount: Money,
  bank: z
    .object({
      holder: Text({ min: 1, max: 100 }),
      bank: Text({ min: 1, max: 100 }),
      accNo: z.string().trim().regex(/^[A-Za-z0-9]{4,34}$/, "Account number must be 4 to 34 letters or digits"),
      ifsc: z
        .string()
        .trim()
        .transform((ifsc) => ifsc.toUpperCase())
        .pipe(z.string().regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, "Invalid IFSC")),
      branch: Text({ min: 1, max: 100 }),
    })
    .strict(),
});

// The envelope seals a data URL of up to 1 MB into about 1.9 MB of JSON.
const DEPOSIT_REQUEST_BODY_LIMIT = 3 * IMAGE_MAX_BYTES;

export function playerOf(request: FastifyRequest) {
  if (!request.player) throw unauthorized(USER_NOT_FOUND);
  return request.player;
}

export default async function playerRoutes(app: FastifyInstance, { uploadsDir }: { uploadsDir: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const players = createPlayerService({ db: app.db, production: app.config.NODE_ENV === "production" });
  const requests = createRequestService({ db: app.db, uploadsDir, announce: app.realtime.announce });

  api.post("/login", { config: { auth: false }, schema: { body: LoginBody } }, async (request, reply) => {
    return reply.ok(await players.login(request.body, clientOf(request)), "Login successful");
  });

  api.get("/me", async (request, reply) => {
    return reply.ok(toMe(playerOf(request)));
  });

  api.post(
    "/deposit-request",
    { bodyLimit: DEPOSIT_REQUEST_BODY_LIMIT, schema: { body: DepositRequestBody } },
    async (request, reply) => {
      return reply.ok(await requests.requestDeposit(playerOf(request), request.body), REQUEST_MESSAGE.depositRequested);
    },
  );

  await app.register(playerBetRoutes);

  api.post("/withdraw-request", { schema: { body: WithdrawRequestBody } }, async (request, reply) => {
    return reply.ok(await requests.requestWithdraw(playerOf(request), request.body), REQUEST_MESSAGE.withdrawRequested);
  });
}
