/** `!` in the palette: `?q=` finds the audit entries done to or by an account. */
import { searchAudit } from "~/lib/audit-trail.server";
import { searchLoader } from "~/lib/search.server";

export const loader = searchLoader(searchAudit);
