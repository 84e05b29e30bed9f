/** docs/product.md §2.12: Bonus: the deposit bonus, a percentage. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { simpleSettingScreen } from "~/components/settings/SimpleSettingScreen";
import { screenHandle } from "~/lib/screens";
import { loadSimpleSetting, saveSimpleSetting } from "~/lib/settings.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("bonus");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = (args: LoaderFunctionArgs) => loadSimpleSetting(args, "bonus");
export const action = (args: ActionFunctionArgs) => saveSimpleSetting(args, "bonus");
export default simpleSettingScreen("bonus");
