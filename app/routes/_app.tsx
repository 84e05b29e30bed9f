/** Every signed-in route sits under this layout: it needs a session and loads the admin record. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, type ClientLoaderFunctionArgs, type ShouldRevalidateFunction } from "@remix-run/react";
import { Shell } from "~/components/ui/Shell";
import { approvalCount } from "~/lib/approvals.server";
import { capabilities } from "~/lib/capabilities.server";
import { jobCount } from "~/lib/jobs.server";
import { callAsOperator } from "~/lib/session.server";
import { layoutThroughOutage } from "~/lib/outage";
import { orRouteError } from "~/lib/route-errors.server";
import { toOperator } from "~/lib/operator";
import { pendingCounts } from "~/lib/requests.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [admin, pending] = await Promise.all([
    orRouteError(callAsOperator(request, context, "currentAdmin", undefined)),
    pendingCounts(request, context),
  ]);
  const operator = toOperator(admin);
  // Four-eyes approvals and unfinished jobs come from the console's store, fresh on every reload of this layout.
  const [approvals, jobs] = await Promise.all([approvalCount(context, operator), jobCount(context, operator)]);
  // What the operator's API showed missing so far (call names and a sentence each, nothing secret).
  return { operator, balance: admin.balance, pending: { ...pending, approvals, jobs }, lacking: capabilities.missingCalls() };
}

/** A reload while the console is out of reach keeps the shell as it was (app/lib/outage.ts). */
export const clientLoader = ({ serverLoader }: ClientLoaderFunctionArgs) => layoutThroughOutage(() => serverLoader<typeof loader>());

/**
 * The balance in the status line must follow every change the operator makes, and the counts
 * the platform's news (a reload of the address showing). A switch to another screen or page does
 * not wait for this layout's calls: single fetch would otherwise read them again on every one.
 * Every screen reads something upstream on its own (home and Change Password the operator's
 * record), which is what finds a session ended elsewhere (a password changed on another sign-in).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) =>
  formMethod !== undefined || (currentUrl.href === nextUrl.href && defaultShouldRevalidate);

export default function SignedIn() {
  const { operator, balance, pending, lacking } = useLoaderData<typeof clientLoader>();
  return (
    <Shell operator={operator} balance={balance} pending={pending} lacking={lacking}>
      <Outlet />
    </Shell>
  );
}
