/** `#` and Open market… in the palette: `?q=` finds events by team name. */
import { searchEvents } from "~/lib/markets.server";
import { searchLoader } from "~/lib/search.server";

export const loader = searchLoader(searchEvents);
