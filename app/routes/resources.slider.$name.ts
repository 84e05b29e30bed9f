/** A slider image (docs/product.md §2.12), through the console so the operator's token stays on the server. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { sliderImage } from "~/lib/settings.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const name = params.name ?? "";
  if (!/^[\w.-]{1,128}$/.test(name)) throw new Response("Not Found", { status: 404 });
  return sliderImage(request, context, name);
}
