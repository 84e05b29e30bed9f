/**
 * `npm run audit:verify`: walks the console's audit trail (CONSOLE_DATABASE_URL, else
 * CONSOLE_DATA_DIR) recomputing every hash. Exits 0 with the entry count and the head hash (note
 * it somewhere else to catch a rewritten chain later), or 1 naming the first broken entry.
 */
import { env } from "../app/lib/env.server";
import { verifyAudit } from "../app/lib/store/audit-log.server";
import { openConsoleStore, storeTargetOf } from "../app/lib/store/open.server";

const store = await openConsoleStore(storeTargetOf(env));
try {
  const check = await verifyAudit(store);
  if (check.ok) {
    console.log(`audit trail intact: ${check.entries} entries, head ${check.head}`);
  } else {
    console.error(`audit trail broken at entry ${check.seq}: ${check.problem}`);
    process.exitCode = 1;
  }
} finally {
  await store.destroy();
}
