/**
 * Sports data under /api/sports: the events of a sport, and the market book of events
 * (market-green, market-bets) with the scorecard's address, for the house desk (super admin,
 * staff with `bets`) and partners (their subtree's book); the closed markets awaiting
 * settlement (market-results) for the house desk only. The scorecard page is served
 * outside the admin scopes (scorecardPageRoutes): a frame loads it without a token.
 */
import { CALLS } from "../../../protocol/calls.js";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { BOOK_USERS_LIMIT_MAX, ROLE, SPORTS } from "../../../protocol/wire.js";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { DateTime } from "../../validation/days.js";
import { blankless, Id, Paging, Text } from "../../validation/schemas.js";
import { authenticated, requireStaffFlag } from "../auth/access.js";
import { createSportsService } from "./service.js";

export const SPORTS_API_PREFIX = "/api/sports";
export const SCORECARD_PAGE_PATH = "/api/scorecard-page";

const SportParams = z.object({ sport: z.enum(SPORTS) }).strict();
const EventId = z.string().regex(/^[\w-]{1,64}$/, "Invalid eventId");
const EventParams = z.object({ eventId: EventId }).strict();
/** Events one green lookup may name: a desk's list of events of every sport. */
export const MAX_GREEN_EVENTS = 500;
const GreenBody = z.object({ eventIds: z.array(EventId).max(MAX_GREEN_EVENTS) }).strict();
const SportQuery = { sport: blankless(z.enum(SPORTS).optional()) };
const MarketBetsQuery = z
  .object({
    eventId: blankless(Text({ min: 1, max: 64 })),
    ...SportQuery,
    client: blankless(Id.optional()),
    // Extension: list only the first users (the answer's usersTotal counts them all).
    usersLimit: blankless(z.coerce.number().int().min(0).max(BOOK_USERS_LIMIT_MAX).optional()),
  })
  .strict();
const ScorecardQuery = z.object(SportQuery).strict();
const ClosedQuery = z
  .object({
    ...Paging.shape,
    sport: blankless(z.enum(SPORTS).transform((sport) => SPORTS.indexOf(sport)).optional()),
    since: blankless(DateTime.optional()),
  })
  .strict();

export async function sportsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const sports = createSportsService({ db: app.db });
  api.get(CALLS.matches.path, { schema: { params: SportParams } }, async (request, reply) => {
    return reply.ok(await sports.events(request.params.sport));
  });

  const book = { onRequest: requireStaffFlag("bets", { partners: true }) };
  /** A partner's calls count its subtree's bets; the house desk's count everyone's. */
  const withinOf = (request: Parameters<typeof authenticated>[0]) => {
    const { admin } = authenticated(request);
    return admin.role === ROLE.partner ? admin.id : null;
  };
  api.post(CALLS.marketGreen.path, { ...book, schema: { body: GreenBody } }, async (request, reply) => {
    return reply.ok(await sports.green([...new Set(request.body.eventIds)], withinOf(request)));
  });

  api.get(CALLS.marketBets.path, { ...book, schema: { querystring: MarketBetsQuery } }, async (request, reply) => {
    const { eventId, sport, client, usersLimit } = request.query;
    await sports.event(eventId, sport);
    return reply.ok(await sports.book(eventId, { within: withinOf(request), client }, usersLimit));
  });

  // Scoped like the pending queue it summarises: the house desk only.
  api.get(CALLS.marketResults.path, { onRequest: requireStaffFlag("bets"), schema: { querystring: ClosedQuery } }, async (request, reply) => {
    const { page, pageSize, sport, since } = request.query;
    return reply.ok(await sports.closedMarkets({ sport, since }, { page, pageSize }));
  });

  // The page's address on this host as the caller reached it (the console's SPORTS_API_URL).
  api.get(CALLS.scorecard.path, { ...book, schema: { params: EventParams, querystring: ScorecardQuery } }, async (request, reply) => {
    const event = await sports.event(request.params.eventId, request.query.sport);
    return reply.ok({ url: `${request.protocol}://${request.host}${SCORECARD_PAGE_PATH}/${encodeURIComponent(event.event_id)}` });
  });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** GET /api/scorecard-page/{eventId}: the simulated score as a small page, framable by the console only. */
export async function scorecardPageRoutes(app: FastifyInstance, { frameAncestors }: { frameAncestors: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const sports = createSportsService({ db: app.db });
  api.get("/:eventId", { schema: { params: EventParams } }, async (request, reply) => {
    const event = await sports.event(request.params.eventId);
    const title = `${escapeHtml(event.team_a)} v ${escapeHtml(event.team_b)}`;
    const lines = event.score.map((line) => `<li>${escapeHtml(line)}</li>`).join("");
    const state = event.status === "CLOSED" ? "finished" : event.inplay ? "in play" : `starts ${event.start_time.toISOString()}`;
    return reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors ${frameAncestors}`)
      .header("cache-control", "no-store")
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="10"><title>${title}</title>` +
          `<style>body{font:14px monospace;background:#111;color:#ddd;margin:8px}h1{font-size:14px}</style></head>` +
          `<body><h1>${title}</h1><p>${escapeHtml(state)}</p><ul>${lines}</ul></body></html>`,
      );
  });
}
