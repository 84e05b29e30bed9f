import type { Page } from "../../protocol/wire";

/** The list kit's shared arithmetic: how many pages a list has (at least one, even when empty). */
export const pageCountOf = (list: Pick<Page<unknown>, "total" | "pageSize">): number =>
  Math.max(1, Math.ceil(list.total / list.pageSize));

/**
 * The most items one reading of a whole list takes from the API (20 pages of 500, or 200 of an
 * API that answers 50 a page): the bound of `readAllPages` (list.server.ts). Past it, what was
 * read is shown as "first 10,000 of 12,345", and a settlement that needs the whole set is refused.
 */
export const SCAN_LIMIT = 10_000;

/** How much of a list one reading took: `read` of the API's `total`, and whether that is all. */
export type Coverage = { read: number; total: number; complete: boolean };

const count = new Intl.NumberFormat("en-IN");
/** What an incomplete reading covered, as the operator reads it: `first 10,000 of 12,345`. */
export const partialText = ({ read, total }: Pick<Coverage, "read" | "total">) => `first ${count.format(read)} of ${count.format(total)}`;
