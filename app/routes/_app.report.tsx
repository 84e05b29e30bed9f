/** The bare report address opens Report V1 with the same query. */
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { SCREENS } from "~/lib/screens";

export const loader = ({ request }: LoaderFunctionArgs) => redirect(`${SCREENS["report-v1"].path}${new URL(request.url).search}`);
