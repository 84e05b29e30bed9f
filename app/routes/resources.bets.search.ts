/** `#` and Settle bet… in the palette: `?q=` finds pending bets by id, username or event. */
import { searchBets } from "~/lib/bets.server";
import { searchLoader } from "~/lib/search.server";

export const loader = searchLoader(searchBets);
