/** `npm run bench`: every benchmark, figures printed and written to docs/benchmarks.md. */
import { spawnSync } from "node:child_process";
import { benchBundle } from "./bundle.bench";
import { benchDecisions } from "./decisions.bench";
import { benchFrames } from "./frames.bench";
import { benchLiveRow } from "./live-row.bench";
import { benchMarketBets, benchMarketRepaint } from "./market-book.bench";
import { startStack } from "./lib";
import { benchReports } from "./report.bench";
import { benchSettleMarket } from "./settle-market.bench";
import { benchPendingList, benchSettlements } from "./sports-book.bench";
import { benchStartup } from "./startup.bench";
import { benchUsersList } from "./users-list.bench";

const build = spawnSync("npx", ["remix", "vite:build"], { stdio: "ignore" });
if (build.status !== 0) throw new Error("the console build failed");

await benchStartup();
const stack = await startStack();
try {
  await benchBundle(stack);
  await benchLiveRow(stack);
  await benchSettleMarket(stack);
  await benchMarketRepaint(stack);
} finally {
  stack.stop();
}

await benchUsersList();
await benchDecisions();
await benchSettlements();
await benchPendingList();
await benchReports();
await benchMarketBets();
await benchFrames();
