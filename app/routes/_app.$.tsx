/** Any other signed-in address: the not-found page, inside the shell. */
import { RouteErrorBoundary } from "~/components/ui/RouteError";
import { titleMeta, type PageHandle } from "~/lib/page";

export const handle: PageHandle = { title: "Not Found" };
export const meta = titleMeta;

export function loader(): never {
  throw new Response("Not Found", { status: 404 });
}

export const ErrorBoundary = RouteErrorBoundary;

export default function NotFoundRoute() {
  return null;
}
