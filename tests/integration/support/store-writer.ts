/**
 * A console's store writer in a process of its own, for the tests that kill it: opens the store
 * in CONSOLE_DATA_DIR as server.ts does and appends sign-in entries one after another, printing
 * `written <seq>` once each is committed, until it is killed. A store it may not open: its error
 * on stderr, exit 1.
 */
import { env } from "../../../app/lib/env.server";
import { appendAudit } from "../../../app/lib/store/audit-log.server";
import { openConsoleStore, storeTargetOf } from "../../../app/lib/store/open.server";

const store = await openConsoleStore(storeTargetOf(env)).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
console.log("opened");
for (let n = 1; ; n++) {
  const entry = await appendAudit(store, {
    operator: "admin", operatorRole: 1, session: null, call: "signIn", kind: "session", accountId: null, accountName: null,
    amount: null, balanceBefore: null, balanceAfter: null, outcome: "ok", status: 200, message: `sign-in ${n}`, request: null, answer: null,
  });
  console.log(`written ${entry.seq}`);
}
