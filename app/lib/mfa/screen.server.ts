/**
 * The Second Factor screen's server half (issue 30): the operator's own factors (an authenticator
 * app, passkeys, recovery codes left), removing a passkey; and the super admin's policy (which
 * roles must use a factor) and reset of another operator's factors. Policy and reset are audited
 * and need a factor given within five minutes (reauth.server.ts).
 */
import type { AppLoadContext } from "@remix-run/node";
import { ROLE } from "../../../protocol/wire";
import { readForm, refuse, runForm } from "../forms/run-form.server";
import { policySchema, removePasskeySchema, resetSchema } from "../forms/second-factor";
import { actorOf, endSessionsOf, requireSession } from "../session.server";
import { listPasskeys, readPolicyRoles, removePasskey, savePolicyRoles } from "../store/second-factor.server";
import { reauthNeeded } from "./reauth.server";
import { enrolmentOf, recordSecurity, requiredRoles, resetFactors, RESET_REASON } from "./second-factor.server";
import { PERMISSION_DENIED, storeOf } from "../guards.server";

export async function loadSecondFactor(request: Request, context: AppLoadContext) {
  const session = await requireSession(request, context);
  const store = storeOf(context);
  const [enrolment, passkeys, roles, chosen] = await Promise.all([
    enrolmentOf(store, session.username),
    listPasskeys(store, session.username),
    requiredRoles(store),
    readPolicyRoles(store),
  ]);
  return {
    enrolment,
    passkeys: passkeys.map((row) => ({ id: row.credential_id, name: row.name, createdAt: row.created_at.toISOString(), lastUsedAt: row.last_used_at?.toISOString() ?? null })),
    policy: { roles, isDefault: chosen === null },
    mayConfigure: session.role === ROLE.superAdmin,
  };
}
export type SecondFactorData = Awaited<ReturnType<typeof loadSecondFactor>>;

export async function secondFactorAction(request: Request, context: AppLoadContext) {
  const session = await requireSession(request, context);
  const store = storeOf(context);
  const form = Object.fromEntries(await readForm(request));
  if (form.intent === "removePasskey") {
    return runForm(form, removePasskeySchema, async ({ id }) => {
      if (!(await removePasskey(store, session.username, id))) return "That passkey was removed already";
      await recordSecurity(store, await actorOf(session), "passkeyRemove", "Passkey removed", { id });
      return "Passkey removed";
    });
  }
  if (session.role !== ROLE.superAdmin) return refuse(PERMISSION_DENIED);
  const asked = await reauthNeeded(request, context);
  if (asked) return asked;
  if (form.intent === "policy") {
    return runForm(form, policySchema, async ({ roles }) => {
      const before = await requiredRoles(store);
      await savePolicyRoles(store, roles);
      await recordSecurity(store, await actorOf(session), "secondFactorPolicy", `Second factor required of roles: ${roles.join(", ") || "none"}`, { roles, before });
      return "Second factor policy saved";
    });
  }
  return runForm(form, resetSchema, async ({ username }) => {
    // Their sessions end; a super admin resetting their own keeps the one they are using.
    const except = username === session.username ? session.id : undefined;
    await resetFactors(store, username, await actorOf(session), () => endSessionsOf(context, username, { except, reason: RESET_REASON }));
    return `Second factor of ${username} reset: they enrol again at their next sign-in`;
  });
}
