/**
 * The plans behind the PostgreSQL figures (bench/pg/index.ts): the platform built in-process on a
 * Kysely that notes every statement it sends, with its parameters; one call of each hot request
 * through app.inject; then each distinct read statement run again under EXPLAIN (ANALYZE, BUFFERS)
 * with the same parameters. Written to docs/benchmarks.md with the indexes each plan uses.
 */
import { MARKET_DETAIL_USERS } from "../../app/lib/constants";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { postgresConfig } from "../../db/index";
import { buildApp } from "../../platform/app";
import type { Database } from "../../platform/db/schema";
import { loadEnv } from "../../platform/env";
import { DEMO_ACCOUNTS } from "../../platform/seed";
import { adminHeaders, record } from "../lib";

type Noted = { sql: string; parameters: readonly unknown[] };

export async function explainHotQueries(url: string, { eventId, marketId, reports }: { eventId: string; marketId: string; reports: string[] }): Promise<void> {
  const requests = [
    "/api/admin/users?page=1&pageSize=50&orderBy=createdAt&isAcc=false",
    "/api/admin/users?page=2000&pageSize=50&orderBy=balance&isAcc=true",
    "/api/admin/users?page=1&pageSize=50&orderBy=username&isAcc=true&username=user1",
    "/api/admin/users?page=1&pageSize=50&orderBy=createdAt&isAcc=false&username=77",
    "/api/admin/sports-pending-bets?pageSize=50",
    `/api/admin/sports-pending-bets?pageSize=50&eventId=${eventId}&sport=cricket`,
    `/api/admin/sports-pending-bets?pageSize=500&marketId=${marketId}&page=20`,
    "/api/admin/sports-pending-bets?pageSize=50&page=1000",
    ...[reports[1]!, ...reports.slice(3, 6)].map((path) => `/api/admin${path}`),
    `/api/sports/market-bets?eventId=${eventId}&sport=cricket&usersLimit=${MARKET_DETAIL_USERS}`,
  ];
  const noted = new Map<string, Noted[]>();
  let current: Noted[] | undefined;
  const pool = new pg.Pool(postgresConfig({ kind: "postgres", url }));
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === "query" && current && /^\s*(select|with)\b/i.test(event.query.sql)) current.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  const env = loadEnv({ NODE_ENV: "test", API_SECRET: "bench-secret" });
  const app = buildApp({ db, env });
  const sections: string[] = [];
  try {
    const headers = await adminHeaders(app, env.API_SECRET, DEMO_ACCOUNTS.admin);
    for (const path of requests) {
      noted.set(path, (current = []));
      const response = await app.inject({ method: "GET", url: path, headers });
      if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}`);
    }
    current = undefined;
    const explained = new Set<string>();
    for (const [path, statements] of noted) {
      const fresh = statements.filter((statement) => !explained.has(statement.sql));
      if (fresh.length === 0) continue;
      const plans: string[] = [];
      for (const statement of fresh) {
        explained.add(statement.sql);
        const { rows } = await pool.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${statement.sql}`, statement.parameters as unknown[]);
        const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
        const indexes = [...new Set([...plan.matchAll(/(?:Index Only Scan|Index Scan|Bitmap Index Scan)(?: Backward)? (?:using|on) (\w+)/g)].map((match) => match[1]!))];
        plans.push(
          `\`\`\`sql\n${statement.sql.replace(/\s+/g, " ").trim()}\n\`\`\`\n\nIndexes used: ${indexes.length > 0 ? indexes.map((name) => `\`${name}\``).join(", ") : "none: sequential scans only (small tables, or see the plan)"}\n\n\`\`\`\n${plan}\n\`\`\``,
        );
      }
      sections.push(`### \`GET ${path}\`\n\n${plans.join("\n\n")}`);
    }
  } finally {
    await app.close();
    await db.destroy();
  }
  record(
    "PostgreSQL query plans (EXPLAIN ANALYZE, BUFFERS)",
    `Each read statement the platform sends for the PostgreSQL benchmark's requests, noted as the platform sent it
(bench/pg/explain.ts: the app in-process on a Kysely that logs its statements), then run again on the same database with
the same parameters under \`EXPLAIN (ANALYZE, BUFFERS)\`; statements already shown under an earlier request are not repeated
(the session check of every call appears under the first). Plans are of a warm cache, right after the benchmark.

${sections.join("\n\n")}`,
  );
}
