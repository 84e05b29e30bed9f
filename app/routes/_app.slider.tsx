/** docs/product.md §2.12: Slider, the stored images and upload slots. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SliderScreen } from "~/components/settings/SliderScreen";
import { screenHandle } from "~/lib/screens";
import { loadSlider, sliderAction } from "~/lib/settings.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("slider");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadSlider(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => sliderAction(request, context);

export default function Slider() {
  return <SliderScreen images={useLoaderData<typeof loader>().images} />;
}
