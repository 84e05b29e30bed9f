/** The approval desk: request lists, decisions, transaction history and receipt images. */
import { CALLS } from "../../../protocol/calls.js";
import { SETTING_BOUNDS } from "../../../protocol/rules.js";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { authenticated, requireStaffFlag } from "../auth/access.js";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { blankless, Decimal2, exactIssue, Id, Money, Paging, Text, withMessage } from "../../validation/schemas.js";
import { createRequestService, REQUEST_MESSAGE, type BonusInput } from "./service.js";
import { IMAGE_HEADERS, IMAGE_NAME } from "../../uploads.js";

const Status = z.coerce.number().pipe(z.union([z.literal(0), z.literal(1), z.literal(2)]));
const StatusParams = z.object({ status: Status });

const ListQuery = Paging.extend({
  orderBy: blankless(z.enum(["createdAt", "amount"]).default("createdAt")),
  isAcc: z.string().optional().transform((value) => value === "true"),
  search: blankless(Text({ max: 64 }).optional()),
});

const HistoryQuery = Paging.extend({
  user: Id,
  role: blankless(z.enum(["user", "partner"]).default("user")),
  type: z.enum(["deposits", "withdraws"]),
  // The console sends the username for its title; the id decides.
  username: Text({ max: 64 }).optional(),
});

/** A percentage with at most 2 decimals, 0–100 → hundredths of a percent (1e-9 is not 0). */
const Percent = withMessage(
  Decimal2(SETTING_BOUNDS.percent).transform((value) => BigInt(Math.round(value * 100))),
  "A bonus percentage must be 0 to 100 with at most 2 decimals",
);
/** An INR bonus: 0, or an amount as for deposits. */
const InrBonus = withMessage(
  z.union([z.literal(0).transform(() => 0n), Money]),
  "An INR bonus must be 0 or more with at most 2 decimals",
);

// Each bonus is one of a pair: an INR amount or a percentage, never both (0 counts as not given).
const BONUS_PAIRS = [
  ["mainInrBonus", "mainPrnBonus"],
  ["inrBonus", "prnBonus"],
] as const;
const bonusInput = (inr?: bigint, percent?: bigint): BonusInput => (inr ? { inr } : percent ? { percent } : {});

const DepositDecisionBody = z
  .object({
    _id: Id,
    status: z.union([z.literal(1), z.literal(2)]),
    inr: Money.optional(),
    inrBonus: InrBonus.optional(),
    prnBonus: Percent.optional(),
    mainInrBonus: InrBonus.optional(),
    mainPrnBonus: Percent.optional(),
  })
  .superRefine((body, ctx) => {
    for (const [inr, percent] of BONUS_PAIRS) {
      if (body[inr] && body[percent]) ctx.addIssue(exactIssue(`Give either ${inr} or ${percent}, not both`));
    }
  })
  .transform((body) => ({
    id: body._id,
    status: body.status,
    inr: body.inr,
    mainBonus: bonusInput(body.mainInrBonus, body.mainPrnBonus),
    bonus: bonusInput(body.inrBonus, body.prnBonus),
  }));

const WithdrawDecisionBody = z.object({
  _id: Id,
  status: z.union([z.literal(1), z.literal(2)]),
  remark: Text({ max: 100, tooLong: "Remark must be at most 100 characters" }).optional(),
});

const ImageParams = z.object({ name: z.string().regex(IMAGE_NAME, "Invalid image name") });

const BonusLimitsBody = z.object({
  maxPercent: Percent,
  maxInr: InrBonus,
});


export default async function requestRoutes(app: FastifyInstance, { uploadsDir }: { uploadsDir: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const requests = createRequestService({ db: app.db, uploadsDir, announce: app.realtime.announce });
  const deposits = { onRequest: requireStaffFlag("deposits", { partners: true }) };
  const withdraws = { onRequest: requireStaffFlag("withdraws", { partners: true }) };

  api.get(CALLS.deposits.path, { ...deposits, schema: { params: StatusParams, querystring: ListQuery } }, async (request, reply) => {
    return reply.ok(await requests.deposits(authenticated(request).admin, request.params.status, request.query));
  });

  api.get(CALLS.withdraws.path, { ...withdraws, schema: { params: StatusParams, querystring: ListQuery } }, async (request, reply) => {
    return reply.ok(await requests.withdraws(authenticated(request).admin, request.params.status, request.query));
  });

  api.post(CALLS.updateDeposit.path, { ...deposits, schema: { body: DepositDecisionBody } }, async (request, reply) => {
    await requests.decideDeposit(authenticated(request).admin, request.body);
    return reply.ok(null, REQUEST_MESSAGE.depositsUpdated);
  });

  api.post(CALLS.updateWithdraw.path, { ...withdraws, schema: { body: WithdrawDecisionBody } }, async (request, reply) => {
    const { _id, ...decision } = request.body;
    await requests.decideWithdraw(authenticated(request).admin, { id: _id, ...decision });
    return reply.ok(null, REQUEST_MESSAGE.withdrawsUpdated);
  });

  // Whoever decides deposits sees the limits beside the bonus inputs; settings staff change them.
  api.get(CALLS.bonusLimits.path, { onRequest: requireStaffFlag(["deposits", "settings"], { partners: true }) }, async (_request, reply) => {
    return reply.ok(await requests.bonusLimits());
  });

  api.post(
    CALLS.updateBonusLimits.path,
    { onRequest: requireStaffFlag("settings"), schema: { body: BonusLimitsBody } },
    async (request, reply) => {
      return reply.ok(await requests.updateBonusLimits(authenticated(request).admin, request.body), REQUEST_MESSAGE.bonusLimitsUpdated);
    },
  );

  // The flag depends on `type`, so the service checks it.
  api.get(CALLS.transactions.path, { schema: { querystring: HistoryQuery } }, async (request, reply) => {
    return reply.ok(await requests.history(authenticated(request).admin, request.query));
  });

  // A file, not the envelope: an <img> or a download shows it as it comes.
  api.get(CALLS.upload.path, { ...deposits, schema: { params: ImageParams } }, async (request, reply) => {
    const image = await requests.image(authenticated(request).admin, request.params.name);
    return reply.type(image.mime).headers(IMAGE_HEADERS).send(image.bytes);
  });
}
