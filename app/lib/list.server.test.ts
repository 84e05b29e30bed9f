import { describe, expect, it, vi } from "vitest";
import type { Page } from "../../protocol/wire";
import { partialText } from "./list";
import { readAllPages, readEveryPage } from "./list.server";

type Row = { _id: string; group: string };
const rows = (count: number, group = (i: number) => (i % 3 === 0 ? "a" : "b")): Row[] =>
  Array.from({ length: count }, (_, i) => ({ _id: String(i + 1), group: group(i) }));

/** An API over `all`: honours `pageSize` unless it answers a fixed `size`; `stuck` ignores `page` too. */
function api(all: Row[], { size, stuck = false }: { size?: number; stuck?: boolean } = {}) {
  return vi.fn(async (page: number, pageSize: number): Promise<Page<Row>> => {
    const per = size ?? pageSize;
    const start = ((stuck ? 1 : page) - 1) * per;
    return { items: all.slice(start, start + per), total: all.length, page, pageSize: pageSize };
  });
}

describe("reading a whole list", () => {
  it("pages by the size the API answered (20 a page), not the size asked, until its total", async () => {
    const fetchPage = api(rows(95), { size: 20 });
    const scan = await readAllPages(fetchPage);
    expect(scan).toMatchObject({ read: 95, total: 95, complete: true, pageSize: 20, dropped: 0 });
    expect(scan.items.map((row) => row._id)).toEqual(rows(95).map((row) => row._id));
    expect(fetchPage).toHaveBeenCalledTimes(5);
  });

  it("asks the largest page size and stops at the total when the API honours it", async () => {
    const fetchPage = api(rows(1_200));
    expect(await readAllPages(fetchPage)).toMatchObject({ read: 1_200, complete: true, pageSize: 500 });
    expect(fetchPage.mock.calls.map(([page, pageSize]) => [page, pageSize])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
    ]);
  });

  it("stops at the bound and says what it covered", async () => {
    const scan = await readAllPages(api(rows(12_345), { size: 50 }), { limit: 5_000 });
    expect(scan).toMatchObject({ read: 5_000, total: 12_345, complete: false });
    expect(partialText(scan)).toBe("first 5,000 of 12,345");
  });

  it("keeps what the filter keeps and counts what it dropped (a filter the API ignored)", async () => {
    const scan = await readAllPages(api(rows(90), { size: 50 }), { keep: (row) => row.group === "a" });
    expect(scan).toMatchObject({ read: 90, complete: true, dropped: 60 });
    expect(scan.items.every((row) => row.group === "a")).toBe(true);
    expect(scan.items).toHaveLength(30);
  });

  it("an API that ignores `page` answers nothing new: the reading stops, incomplete", async () => {
    const fetchPage = api(rows(120), { size: 50, stuck: true });
    expect(await readAllPages(fetchPage)).toMatchObject({ read: 50, total: 120, complete: false });
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it("a page short of the total ends the reading, incomplete (the list shrank while read)", async () => {
    const all = rows(120);
    const fetchPage = vi.fn(async (page: number): Promise<Page<Row>> => {
      // Before the second page 30 rows left the list, and its count came back stale: page 2 is rows 81–120.
      const now = page === 1 ? all : all.slice(30);
      return { items: now.slice((page - 1) * 50, page * 50), total: 120, page, pageSize: 50 };
    });
    expect(await readAllPages(fetchPage)).toMatchObject({ read: 90, complete: false });
  });

  it("reads an empty list once, complete", async () => {
    const fetchPage = api([]);
    expect(await readAllPages(fetchPage)).toMatchObject({ read: 0, total: 0, complete: true, items: [] });
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });
});

describe("reading every page at once", () => {
  it("asks every page after the first at once (at most `inFlight`), by the size the API answered, and keeps the API's order", async () => {
    let open = 0;
    let most = 0;
    const inner = api(rows(1_030), { size: 100 });
    const fetchPage = vi.fn(async (page: number, pageSize: number) => {
      most = Math.max(most, ++open);
      await new Promise((done) => setTimeout(done, 1));
      open--;
      return inner(page, pageSize);
    });
    const scan = await readEveryPage(fetchPage, { inFlight: 4 });
    expect(scan).toMatchObject({ read: 1_030, total: 1_030, complete: true, pageSize: 100, dropped: 0 });
    expect(scan.items.map((row) => row._id)).toEqual(rows(1_030).map((row) => row._id));
    expect(fetchPage.mock.calls.map(([page]) => page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(most).toBe(4);
  });

  it("given the list's opposite order, reads the second half from the end: no page deeper than the middle, the list's own order", async () => {
    const all = rows(1_030);
    const forward = api(all, { size: 100 });
    const backward = api([...all].reverse(), { size: 100 });
    const scan = await readEveryPage(forward, { inFlight: 4, fetchPageFromEnd: backward });
    expect(scan).toMatchObject({ read: 1_030, total: 1_030, complete: true, pageSize: 100 });
    expect(scan.items.map((row) => row._id)).toEqual(all.map((row) => row._id));
    expect(forward.mock.calls.map(([page]) => page)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(backward.mock.calls.map(([page]) => page).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("an API that ignores `page` repeats the first page: read once, incomplete, and no page after the one that showed it", async () => {
    const fetchPage = api(rows(10_000), { size: 50, stuck: true });
    const scan = await readEveryPage(fetchPage, { inFlight: 4 });
    expect(scan).toMatchObject({ read: 50, total: 10_000, complete: false });
    expect(fetchPage.mock.calls.map(([page]) => page)).toEqual([1, 2]);
  });

  it("asks no more pages than `limit` items need, from the list's start even given its opposite order: incomplete past it", async () => {
    const all = rows(1_030);
    const forward = api(all, { size: 100 });
    const backward = api([...all].reverse(), { size: 100 });
    const scan = await readEveryPage(forward, { inFlight: 4, limit: 450, fetchPageFromEnd: backward });
    expect(scan).toMatchObject({ read: 500, total: 1_030, complete: false });
    expect(scan.items.map((row) => row._id)).toEqual(all.slice(0, 500).map((row) => row._id));
    expect(forward.mock.calls.map(([page]) => page)).toEqual([1, 2, 3, 4, 5]);
    expect(backward).not.toHaveBeenCalled();
  });

  it("keeps what the filter keeps, and reads an empty list once", async () => {
    const scan = await readEveryPage(api(rows(90), { size: 50 }), { inFlight: 2, keep: (row) => row.group === "a" });
    expect(scan).toMatchObject({ read: 90, complete: true, dropped: 60 });
    const empty = api([]);
    expect(await readEveryPage(empty, { inFlight: 4 })).toMatchObject({ read: 0, complete: true, items: [] });
    expect(empty).toHaveBeenCalledTimes(1);
  });
});
