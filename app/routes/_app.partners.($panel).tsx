/** Spec §2.5: the partners list, optionally below one panel (/partners/{panel}). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { accountAction, loadAccountList } from "~/lib/accounts.server";
import type { PageHandle } from "~/lib/page";

export { AccountListScreen as default } from "~/components/accounts/AccountList";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle: PageHandle = { title: "Panels" };

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  loadAccountList(request, context, "partners", params.panel);

export const action = ({ request, context }: ActionFunctionArgs) => accountAction(request, context);
