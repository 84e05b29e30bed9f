/**
 * `npm run mfa:reset -- <username>`, run on the console's server: forgets the operator's second
 * factor (a super admin who lost theirs and whom no other super admin can reset), ends their
 * console sessions, and records it in the audit trail as done from the server's shell. They enrol
 * again at their next sign-in. An embedded store a running console holds is not opened: exit 2.
 */
import { userInfo } from "node:os";
import { DataDirInUse } from "../db/data-dir-lock";
import { env } from "../app/lib/env.server";
import { RESET_REASON, resetFactors } from "../app/lib/mfa/second-factor.server";
import { openConsoleStore, storeTargetOf } from "../app/lib/store/open.server";
import { endSessions } from "../app/lib/store/sessions.server";

const username = process.argv[2]?.trim();
if (!username) {
  console.error("usage: npm run mfa:reset -- <username>");
  process.exit(1);
}

const store = await openConsoleStore(storeTargetOf(env)).catch((error: unknown) => {
  if (!(error instanceof DataDirInUse)) throw error;
  console.error(`second factor not reset: the console's store ${error.message}.\nStop the console first and run mfa:reset again.`);
  process.exit(2);
});
try {
  const actor = { operator: `server:${userInfo().username}`, operatorRole: null, session: null };
  await resetFactors(store, username, actor, async () => (await endSessions(store, { operator: username }, RESET_REASON)).length);
  console.log(`second factor of ${username} reset: they enrol again at their next sign-in`);
} finally {
  await store.destroy();
}
