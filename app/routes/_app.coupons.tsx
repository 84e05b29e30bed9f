/** docs/product.md §2.12: Coupons, the list and the add form (not in the sidebar: palette and g C). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CouponsScreen } from "~/components/settings/CouponsScreen";
import { screenHandle } from "~/lib/screens";
import { addCoupon, loadCoupons } from "~/lib/settings.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("coupons");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadCoupons(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => addCoupon(request, context);

export default function Coupons() {
  return <CouponsScreen coupons={useLoaderData<typeof loader>().coupons} />;
}
