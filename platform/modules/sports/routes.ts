/**
 * Sports data under /api/sports: the events of a sport. The scorecard page is served
 * outside the admin scopes (scorecardPageRoutes): a frame loads it without a token.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { SPORTS } from "../../../protocol/wire.js";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { createSportsService } from "./service.js";

export const SPORTS_API_PREFIX = "/api/sports";
export const SCORECARD_PAGE_PATH = "/api/scorecard-page";

const SportParams = z.object({ sport: z.enum(SPORTS) }).strict();
const EventParams = z.object({ eventId: z.string().regex(/^[\w-]{1,64}$/, "Invalid eventId") }).strict();

export async function sportsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const sports = createSportsService({ db: app.db });
  api.get("/matches/:sport", { schema: { params: SportParams } }, async (request, reply) => {
    return reply.ok(await sports.events(request.params.sport));
  });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** GET /api/scorecard-page/{eventId}: the simulated score as a small page, framable by the console only. */
export async function scorecardPageRoutes(app: FastifyInstance, { frameAncestors }: { frameAncestors: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const sports = createSportsService({ db: app.db });
  api.get("/:eventId", { schema: { params: EventParams } }, async (request, reply) => {
    const event = await sports.scorecard(request.params.eventId);
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
