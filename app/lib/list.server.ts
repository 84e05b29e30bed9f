/**
 * The list kit's server half: read a list screen's address with its zod schema (a hand-edited
 * address falls back to the schema's defaults, or is not found), then load that page; an upstream
 * refusal becomes the page the operator should see (Permission Denied, not found). And the one
 * reader of a whole list (`readAllPages`), for totals, choices and filters the API may ignore, and
 * its fast twin for a large list read to the end (`readEveryPage`).
 */
import type { z } from "zod";
import { inBatches } from "../machines/in-batches";
import { PAGE_SIZE, type Page } from "../../protocol/wire";
import { SCAN_LIMIT, type Coverage } from "./list";
import { orRouteError } from "./route-errors.server";

export async function loadListPage<Schema extends z.ZodTypeAny, Page>(
  request: Request,
  schema: Schema,
  load: (query: z.infer<Schema>) => Promise<Page>,
): Promise<{ query: z.infer<Schema>; list: Page }> {
  const parsed = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw new Response("Not Found", { status: 404 });
  return { query: parsed.data, list: await orRouteError(load(parsed.data)) };
}

export type Scan<T> = Coverage & {
  /** The items read that `keep` kept, in the API's order. */
  items: T[];
  /** Items read that `keep` dropped: more than 0 means the API ignored a filter it was asked. */
  dropped: number;
  /** The most items one page answered: the page size in effect (an API may ignore the `pageSize` asked). */
  pageSize: number;
};

/**
 * Reads a list page after page until the API's `total` is reached, trusting only the answers:
 * the page size in effect (an API may ignore `pageSize` and answer 50 or 20 a page), the latest
 * `total`, and each item's `_id` (a repeat is read once). It stops, incomplete, at `limit` items,
 * at an empty page or one that adds nothing new (an API that ignores `page`), or at a short page
 * before the total.
 */
export async function readAllPages<T extends { _id: string }>(
  fetchPage: (page: number, pageSize: number) => Promise<Page<T>>,
  { limit = SCAN_LIMIT, keep = () => true }: { limit?: number; keep?: (item: T) => boolean } = {},
): Promise<Scan<T>> {
  const collected = collector(keep);
  let pageSize = 0;
  for (let page = 1; ; page++) {
    const answer = await fetchPage(page, PAGE_SIZE.max);
    const before = collected.seen.size;
    collected.add(answer.items);
    // The items counted, not the answer's `pageSize` field: an API may echo the size it was asked.
    pageSize = Math.max(pageSize, answer.items.length);
    const read = collected.seen.size;
    const scan = { items: collected.items, dropped: collected.dropped, pageSize, read, total: answer.total };
    if (read >= answer.total) return { ...scan, complete: true };
    const lastPage = read === before || answer.items.length < pageSize || page * pageSize >= answer.total;
    if (lastPage || read >= limit) return { ...scan, complete: false };
  }
}

/** The items of pages as the readers keep them: a repeated `_id` once, what `keep` drops counted. */
function collector<T extends { _id: string }>(keep: (item: T) => boolean) {
  const collected = {
    seen: new Set<string>(),
    items: [] as T[],
    dropped: 0,
    add(items: readonly T[]) {
      for (const item of items) {
        if (collected.seen.has(item._id)) continue;
        collected.seen.add(item._id);
        if (keep(item)) collected.items.push(item);
        else collected.dropped++;
      }
    },
  };
  return collected;
}

/** Pages of a whole list read at once (readEveryPage): a few, so the API's other callers still get in. */
export const PAGES_IN_FLIGHT = 4;

/**
 * Every page of a list, `inFlight` at a time once the first answer gave the total and the page
 * size in effect (an API may ignore `pageSize`), and the second showed the API honours `page` (one
 * that ignores it repeats the first page: the read stops there, incomplete). At most `limit` items
 * are asked for, as readAllPages reads. Given `fetchPageFromEnd` (the same list in the opposite
 * order), the second half is read from the end: no page lies deeper than the middle, and a deep
 * page is what costs an API most (it skips every row before it). Trusts the answers as
 * readAllPages does: a repeat `_id` is read once, and the scan is complete only when it read the
 * first answer's total. It is not when the list changed while it was read, or the API ignored
 * `page`: the caller looks up what it missed some other way. Items come in the list's order.
 */
export async function readEveryPage<T extends { _id: string }>(
  fetchPage: (page: number, pageSize: number) => Promise<Page<T>>,
  {
    inFlight,
    limit = Number.POSITIVE_INFINITY,
    keep = () => true,
    fetchPageFromEnd,
  }: { inFlight: number; limit?: number; keep?: (item: T) => boolean; fetchPageFromEnd?: (page: number, pageSize: number) => Promise<Page<T>> },
): Promise<Scan<T>> {
  const collected = collector(keep);
  const first = await fetchPage(1, PAGE_SIZE.max);
  collected.add(first.items);
  const pageSize = first.items.length;
  const scan = (): Scan<T> => {
    const read = collected.seen.size;
    return { items: collected.items, dropped: collected.dropped, pageSize, read, total: first.total, complete: read >= first.total };
  };
  const listed = pageSize === 0 ? 1 : Math.ceil(first.total / pageSize);
  const pages = Math.min(listed, Math.max(1, Math.ceil(limit / Math.max(pageSize, 1))));
  if (pages === 1) return scan();
  const second = await fetchPage(2, PAGE_SIZE.max);
  const before = collected.seen.size;
  collected.add(second.items);
  if (collected.seen.size === before) return scan();
  // From the end only when every page is read: a list cut at `limit` is read from its start.
  const fromEnd = fetchPageFromEnd && pages === listed ? Math.min(Math.floor(pages / 2), pages - 2) : 0;
  const reads = [
    ...Array.from({ length: pages - fromEnd - 2 }, (_, index) => () => fetchPage(index + 3, PAGE_SIZE.max)),
    // From the middle outwards, each page's items turned round: together the list's own order.
    ...Array.from({ length: fromEnd }, (_, index) => async () => {
      const answer = await fetchPageFromEnd!(fromEnd - index, PAGE_SIZE.max);
      return { ...answer, items: [...answer.items].reverse() };
    }),
  ];
  for (const answer of await inBatches(reads, inFlight, (read) => read())) collected.add(answer.items);
  return scan();
}
