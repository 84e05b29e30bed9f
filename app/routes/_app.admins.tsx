/** docs/product.md §2.12: Admin Management, the super admin's staff list and add form. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { StaffScreen } from "~/components/staff/StaffScreen";
import { screenHandle } from "~/lib/screens";
import { loadStaff, staffAction } from "~/lib/staff.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("admins");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadStaff(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => staffAction(request, context);

export default function Admins() {
  return <StaffScreen staff={useLoaderData<typeof loader>().staff} />;
}
