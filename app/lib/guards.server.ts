/**
 * The console's own routes check the operator as the desk does (issue 29): a route of the
 * console's store (jobs, approvals, the trail) refuses with 403 whatever the screen's rule in
 * app/lib/screens.ts would refuse, read from the operator's record as it stands now.
 */
import type { AppLoadContext } from "@remix-run/node";
import { toOperator, type Operator } from "./operator";
import { orRouteError } from "./route-errors.server";
import { mayUse, type Access } from "./screens";
import { callAsOperator } from "./session.server";
import type { ConsoleStore } from "./store/schema";

export const PERMISSION_DENIED = "Permission denied";

/** The console's own store, or a thrown 503 when it is not open. */
export function storeOf(context: AppLoadContext): ConsoleStore {
  if (!context.store) throw new Response("The console's store is not open", { status: 503 });
  return context.store;
}

/** The signed-in operator as their record stands now (role and staff flags). */
export const currentOperator = async (request: Request, context: AppLoadContext): Promise<Operator> =>
  toOperator(await orRouteError(callAsOperator(request, context, "currentAdmin", undefined)));

/** The operator, when they may use `access`; else a thrown 403. */
export async function requireAccess(request: Request, context: AppLoadContext, access: Access): Promise<Operator> {
  const operator = await currentOperator(request, context);
  if (!mayUse(access, operator)) throw new Response(PERMISSION_DENIED, { status: 403 });
  return operator;
}
