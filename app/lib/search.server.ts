/** The palette's server searches (`@`, `#`): several sources, asked at once. */
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
