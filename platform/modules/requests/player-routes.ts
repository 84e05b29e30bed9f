/** Deposit and withdrawal requests through the end-user API (/api/user), behind its session hook. */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { IMAGE_MAX_BYTES } from "../../uploads.js";
import { blankless, Money, Text } from "../../validation/schemas.js";
import { playerOf } from "../players/access.js";
import { createRequestService, REQUEST_MESSAGE } from "./service.js";

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
  // A data URL; its type and size are checked on its bytes (uploads.ts).
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

export default async function playerRequestRoutes(app: FastifyInstance, { uploadsDir }: { uploadsDir: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const requests = createRequestService({ db: app.db, uploadsDir, announce: app.realtime.announce });

  api.post(
    "/deposit-request",
    { bodyLimit: DEPOSIT_REQUEST_BODY_LIMIT, schema: { body: DepositRequestBody } },
    async (request, reply) => {
      return reply.ok(await requests.requestDeposit(playerOf(request), request.body), REQUEST_MESSAGE.depositRequested);
    },
  );

  api.post("/withdraw-request", { schema: { body: WithdrawRequestBody } }, async (request, reply) => {
    return reply.ok(await requests.requestWithdraw(playerOf(request), request.body), REQUEST_MESSAGE.withdrawRequested);
  });
}
