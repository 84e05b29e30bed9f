/** What a failed step shows when the failure carries no words of its own (docs/product.md §8). */
export const FALLBACK_MESSAGE = "Something went wrong";

export const messageOf = (error: unknown): string =>
  error instanceof Error && error.message ? error.message : FALLBACK_MESSAGE;
