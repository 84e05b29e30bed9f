/** Issue 7: Bonus Limits (issue 7): the largest bonus a deposit decision may pay. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { simpleSettingScreen } from "~/components/settings/SimpleSettingScreen";
import { screenHandle } from "~/lib/screens";
import { loadSimpleSetting, saveSimpleSetting } from "~/lib/settings.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("bonus-limits");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = (args: LoaderFunctionArgs) => loadSimpleSetting(args, "bonusLimits");
export const action = (args: ActionFunctionArgs) => saveSimpleSetting(args, "bonusLimits");
export default simpleSettingScreen("bonusLimits");
