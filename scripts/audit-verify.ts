/**
 * `npm run audit:verify`: walks the console's audit trail (CONSOLE_DATABASE_URL, else
 * CONSOLE_DATA_DIR) recomputing every hash. Exits 0 with the entry count and the head hash (note
 * it somewhere else to catch a rewritten chain later), or 1 naming the first broken entry. An
 * embedded store a running console holds is not opened beside it (that lost the console's later
 * entries): exit 2, saying so. On PostgreSQL it reads one snapshot beside running consoles.
 */
import { DataDirInUse } from "../db/data-dir-lock";
import { env } from "../app/lib/env.server";
import { verifyAudit } from "../app/lib/store/audit-log.server";
import { openConsoleStore, storeTargetOf } from "../app/lib/store/open.server";

const store = await openConsoleStore(storeTargetOf(env)).catch((error: unknown) => {
  if (!(error instanceof DataDirInUse)) throw error;
  console.error(
    `audit trail not checked: the console's store ${error.message}.\n` +
      "Stop the console first and run audit:verify again (or verify a copy of CONSOLE_DATA_DIR taken while it was stopped).",
  );
  process.exit(2);
});
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
