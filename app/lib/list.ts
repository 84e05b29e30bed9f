import type { Page } from "../../protocol/wire";

/** The list kit's shared arithmetic: how many pages a list has (at least one, even when empty). */
export const pageCountOf = (list: Pick<Page<unknown>, "total" | "pageSize">): number =>
  Math.max(1, Math.ceil(list.total / list.pageSize));
