/**
 * Reports at 1,000,000 settled bets on a fresh temporary PGlite (the seed's bulk path with every
 * bet settled: bets, their results and the daily rollup), through app.inject as the super
 * admin: v1 and v2 for the house, the demo partner and a user, over today, the seeded week and
 * a month. Budget: p95 within 200 ms.
 */
import { sql } from "kysely";
import { DEMO_ACCOUNTS, seedUsername } from "../platform/seed";
import { kolkataToday } from "../platform/validation/days";
import { open } from "../protocol/envelope";
import { percentile, record } from "./lib";
import { withSeededPlatform } from "./sports-book.bench";

const SETTLED_BETS = 1_000_000;
const WARM_UP = 20;
const MEASURED = 300;
const BUDGET_MS = 200;

const daysBefore = (days: number) => new Date(Date.parse(`${kolkataToday()}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** The reports the benchmark cycles (also bench/pg): v1 and v2 for the house, a partner and a user over today, a week and 30 days. */
export function reportQueries(partner: string, user: string): string[] {
  const week = `from=${daysBefore(7)}&to=${kolkataToday()}`;
  const month = `from=${daysBefore(30)}&to=${kolkataToday()}`;
  return [
    "/b2c/report",
    `/b2c/report?${week}`,
    `/report?${month}`,
    `/b2c/report?${week}&user=${partner}&type=partner`,
    `/report?${month}&user=${partner}&type=partner`,
    `/report?${week}&user=${user}&type=user`,
  ];
}

export async function benchReports(): Promise<void> {
  await withSeededPlatform({ users: 200, bets: SETTLED_BETS, settledShare: 1 }, async (app, headers, secret, seedSeconds) => {
    // Fast figures over an empty rollup would mean nothing: the house's rows must hold every seeded result.
    const { rows } = await sql<{ results: string; rolled: string }>`
      select (select coalesce(sum(house_result), 0) from bet_results)::text as results,
             (select coalesce(sum(direct + indirect), 0) from report_rollup where subject_kind = 'house')::text as rolled`.execute(app.db);
    if (rows[0]!.results === "0" || rows[0]!.results !== rows[0]!.rolled) throw new Error(`the rollup does not hold the seeded results: ${JSON.stringify(rows[0])}`);
    const idOf = async (path: string, username: string) => {
      const reply = await app.inject({ method: "GET", url: `/api/admin/${path}?username=${username}`, headers });
      return (open(reply.json<{ data: string }>().data, secret) as { items: { _id: string }[] }).items[0]!._id;
    };
    const partner = await idOf("partners", DEMO_ACCOUNTS.partner.username);
    const user = await idOf("users", seedUsername(7));
    const queries = reportQueries(partner, user);
    const timings: number[] = [];
    for (let i = 0; i < WARM_UP + MEASURED; i++) {
      const before = performance.now();
      const response = await app.inject({ method: "GET", url: `/api/admin${queries[i % queries.length]}`, headers });
      const elapsed = performance.now() - before;
      if (response.statusCode !== 200) throw new Error(`the report answered ${response.statusCode}: ${response.body}`);
      if (i >= WARM_UP) timings.push(elapsed);
    }
    const p95 = percentile(timings, 95);
    record(
      "Reports at 1,000,000 settled bets (PGlite)",
      `${MEASURED} report calls after ${WARM_UP} warm-up, through app.inject as the super admin, on a fresh PGlite holding
${SETTLED_BETS.toLocaleString("en-US")} settled bets over the seeded week (\`seed({ bets: ${SETTLED_BETS}, settledShare: 1 })\`: bulk inserts of
the bets, their results and the daily rollup, which took ${seedSeconds.toFixed(0)} s), cycling v1 and v2 for the house, the demo partner
and a user over today, the week and 30 days. Each report sums the rollup (migration 008), never the bets; before
measuring, the house's rollup rows are checked to sum to every seeded result. Budget: p95 within ${BUDGET_MS} ms.

| calls | p50 | p95 | max | within budget |
|---|---|---|---|---|
| ${MEASURED} | ${percentile(timings, 50).toFixed(1)} ms | ${p95.toFixed(1)} ms | ${Math.max(...timings).toFixed(1)} ms | ${p95 <= BUDGET_MS ? "yes" : "no"} |`,
    );
  });
}
