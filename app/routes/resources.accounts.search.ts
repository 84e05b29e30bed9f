/** `@` in the palette: `?q=` finds users and panels by username. */
import { searchAccounts } from "~/lib/accounts.server";
import { searchLoader } from "~/lib/search.server";

export const loader = searchLoader(searchAccounts);
