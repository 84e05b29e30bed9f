/** A deposit's receipt image (docs/product.md §2.11), through the console so the token stays on the server. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { receiptImage } from "~/lib/requests.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const name = params.name ?? "";
  if (!/^[\w.-]{1,128}$/.test(name)) throw new Response("Not Found", { status: 404 });
  return receiptImage(request, context, name);
}
