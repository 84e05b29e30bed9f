/** Spec §2.5: the users list, optionally below one panel (/users/{panel}). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { accountAction, loadAccountList } from "~/lib/accounts.server";
import type { PageHandle } from "~/lib/page";

export { AccountListScreen as default } from "~/components/accounts/AccountList";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle: PageHandle = { title: "Users" };

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  loadAccountList(request, context, "users", params.panel);

export const action = ({ request, context }: ActionFunctionArgs) => accountAction(request, context);
