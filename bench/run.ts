/**
 * `npm run bench`: every benchmark, figures printed and written to docs/benchmarks.md.
 * `npm run bench -- envelope screens`: only the named ones (the names below).
 * `npm run bench -- --pg`: the PostgreSQL benchmarks alone, on the database DATABASE_URL names (bench/pg).
 */
import { spawnSync } from "node:child_process";
import { benchAudit, benchAuditAtScale } from "./audit.bench";
import { benchBulkFile } from "./bulk-file.bench";
import { benchBundle } from "./bundle.bench";
import { benchClusterLoad } from "./cluster-load.bench";
import { benchDecisions } from "./decisions.bench";
import { benchEnvelope } from "./envelope.bench";
import { benchFrames } from "./frames.bench";
import { benchLiveRow } from "./live-row.bench";
import { benchPostgres } from "./pg/index";
import { benchMarketBets, benchMarketRepaint } from "./market-book.bench";
import { startStack, type Stack } from "./lib";
import { benchReports } from "./report.bench";
import { benchScreens } from "./screens.bench";
import { benchSessionCheck } from "./session-check.bench";
import { benchSettleMarket } from "./settle-market.bench";
import { benchSettlementWorkspace } from "./settlement-workspace.bench";
import { benchPendingList, benchSettlements } from "./sports-book.bench";
import { benchStartup } from "./startup.bench";
import { benchSwitches } from "./switches.bench";
import { benchUsersList } from "./users-list.bench";

const onStack: Array<[string, (stack: Stack) => Promise<void>]> = [
  ["bundle", benchBundle],
  ["live-row", benchLiveRow],
  ["market-repaint", benchMarketRepaint],
];
const alone: Array<[string, () => Promise<void>]> = [
  ["users-list", benchUsersList],
  ["decisions", benchDecisions],
  ["settlements", benchSettlements],
  ["pending-list", benchPendingList],
  ["reports", benchReports],
  ["market-bets", benchMarketBets],
  ["frames", benchFrames],
  ["envelope", benchEnvelope],
  ["audit", benchAudit],
  ["audit-scale", benchAuditAtScale],
  ["session-check", benchSessionCheck],
  // Start stacks of their own: on a large seed; in test mode on a seed without bets.
  ["screens", benchScreens],
  ["switches", benchSwitches],
  ["settlement-workspace", benchSettlementWorkspace],
  // A stack per profile of the platform (`full`, `spec`).
  ["settle-market", benchSettleMarket],
  ["bulk-file", benchBulkFile],
  // Starts scripts/cluster.sh: PostgreSQL, Redis and haproxy must answer on this machine.
  ["cluster-load", benchClusterLoad],
];

const postgres = process.argv.includes("--pg");
const only = process.argv.slice(2).filter((arg) => arg !== "--pg");
const unknown = only.filter((name) => name !== "startup" && ![...onStack, ...alone].some(([known]) => known === name));
if (unknown.length > 0) throw new Error(`unknown benchmark: ${unknown.join(", ")}`);
const wanted = (name: string) => (only.length === 0 && !postgres) || only.includes(name);
if (postgres) await benchPostgres();
const stackBenches = onStack.filter(([name]) => wanted(name));

if (["startup", "screens", "settlement-workspace", "settle-market", "bulk-file", "cluster-load"].some(wanted) || stackBenches.length > 0) {
  const build = spawnSync("npx", ["remix", "vite:build"], { stdio: "ignore" });
  if (build.status !== 0) throw new Error("the console build failed");
}
if (wanted("startup")) await benchStartup();
if (stackBenches.length > 0) {
  const stack = await startStack();
  try {
    for (const [, bench] of stackBenches) await bench(stack);
  } finally {
    await stack.stop();
  }
}
for (const [name, bench] of alone) if (wanted(name)) await bench();
