/** `#` and the request decisions in the palette: `?q=` finds pending requests by username or UTR. */
import { searchRequests } from "~/lib/requests.server";
import { searchLoader } from "~/lib/search.server";

export const loader = searchLoader(searchRequests);
