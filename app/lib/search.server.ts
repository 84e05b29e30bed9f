/** The palette's server searches (`@`, `#`): several sources, asked at once, behind one loader. */
import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { ApiError } from "./api.server";

/** How many hits each source of a palette search answers. */
export const SEARCH_LIMIT = 8;

/**
 * Runs every source; one the operator may not see (403) adds nothing, so an operator allowed
 * only part still searches the rest. Any other failure is the answer's message.
 */
export async function searchSources<Hit>(
  sources: ReadonlyArray<() => Promise<Hit[]>>,
): Promise<{ hits: Hit[]; message: string | null }> {
  const settle = async (source: () => Promise<Hit[]>) => {
    try {
      return await source();
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus === 403) return [];
      throw error;
    }
  };
  try {
    return { hits: (await Promise.all(sources.map(settle))).flat(), message: null };
  } catch (error) {
    if (error instanceof ApiError) return { hits: [], message: error.message };
    throw error;
  }
}

/** The longest term a search passes on. */
const TERM_MAX = 64;

type Search<Hit> = (request: Request, context: AppLoadContext, term: string) => Promise<{ hits: Hit[]; message: string | null }>;

/**
 * A palette search's resource route (`/resources/<desk>/search?q=`): the term, trimmed and capped,
 * goes to `search`; a blank one finds nothing without a call. (A resource route answers a
 * Response: Remix v3 drops plain objects here.)
 */
export const searchLoader =
  <Hit>(search: Search<Hit>) =>
  async ({ request, context }: LoaderFunctionArgs) => {
    const term = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, TERM_MAX);
    return Response.json(term ? await search(request, context, term) : { hits: [], message: null });
  };
