/** docs/product.md §2.5: the partners list, optionally below one panel (/partners/{panel}). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { accountAction, loadAccountList } from "~/lib/accounts.server";
import { screenHandle } from "~/lib/screens";

export { AccountListScreen as default } from "~/components/accounts/AccountList";
export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("partners");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  loadAccountList(request, context, "partners", params.panel);

export const action = ({ request, context }: ActionFunctionArgs) => accountAction(request, context);
