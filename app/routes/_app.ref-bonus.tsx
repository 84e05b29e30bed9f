/** docs/product.md §2.12: Refer Bonus: the INR amount paid for a referral. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { simpleSettingScreen } from "~/components/settings/SimpleSettingScreen";
import { screenHandle } from "~/lib/screens";
import { loadSimpleSetting, saveSimpleSetting } from "~/lib/settings.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("ref-bonus");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = (args: LoaderFunctionArgs) => loadSimpleSetting(args, "refBonus");
export const action = (args: ActionFunctionArgs) => saveSimpleSetting(args, "refBonus");
export default simpleSettingScreen("refBonus");
