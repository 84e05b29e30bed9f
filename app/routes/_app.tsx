/** Every signed-in route sits under this layout: it needs a session and loads the admin record. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { Shell } from "~/components/ui/Shell";
import { callAsOperator } from "~/lib/session.server";
import { orRouteError } from "~/lib/route-errors.server";
import { toOperator } from "~/lib/operator";
import { pendingCounts } from "~/lib/requests.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [admin, pending] = await Promise.all([
    orRouteError(callAsOperator(request, context, "currentAdmin", undefined)),
    pendingCounts(request, context),
  ]);
  return { operator: toOperator(admin), balance: admin.balance, pending };
}

// The balance in the status line must follow every change the operator makes.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod !== undefined || defaultShouldRevalidate;

export default function SignedIn() {
  const { operator, balance, pending } = useLoaderData<typeof loader>();
  return (
    <Shell operator={operator} balance={balance} pending={pending}>
      <Outlet />
    </Shell>
  );
}
