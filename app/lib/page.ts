/**
 * Page titles: each route names itself once in `handle.title` and exports `meta = titleMeta`
 * (Remix hands a meta function only the matches up to its own route, so the leaf must do it).
 */
import type { MetaFunction } from "@remix-run/node";
import { useMatches } from "@remix-run/react";

export type PageHandle = { title: string };

type MatchLike = { handle?: unknown };

export function pageTitleOf(matches: readonly MatchLike[]): string {
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as Partial<PageHandle> | undefined;
    if (handle?.title) return handle.title;
  }
  return "Home";
}

/** docs/product.md §2.3: the title, a dash, then Admin. */
export const documentTitle = (page: string): string => `${page} - Admin`;

export const titleMeta: MetaFunction = ({ matches }) => [{ title: documentTitle(pageTitleOf(matches)) }];

export const usePageTitle = (): string => pageTitleOf(useMatches());
