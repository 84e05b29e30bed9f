/** docs/product.md §2.12: Telegram: the contact handle or link (not in the sidebar; palette and g t). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { simpleSettingScreen } from "~/components/settings/SimpleSettingScreen";
import { screenHandle } from "~/lib/screens";
import { loadSimpleSetting, saveSimpleSetting } from "~/lib/settings.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("telegram");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = (args: LoaderFunctionArgs) => loadSimpleSetting(args, "telegram");
export const action = (args: ActionFunctionArgs) => saveSimpleSetting(args, "telegram");
export default simpleSettingScreen("telegram");
