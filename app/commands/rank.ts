/**
 * The palette's own filter and ranking (cmdk's built-in filter is off: it slows past a few
 * thousand items). Scores: whole-title prefix > word prefix > substring > subsequence.
 */
export type Rankable = { title: string; keywords?: readonly string[] };

function scoreText(text: string, term: string): number {
  const haystack = text.toLowerCase();
  if (haystack.startsWith(term)) return 100 - Math.min(haystack.length - term.length, 50) / 100;
  const words = haystack.split(/[\s\-_/]+/);
  if (words.some((word) => word.startsWith(term))) return 80;
  if (haystack.includes(term)) return 60;
  let from = 0;
  for (const char of term) {
    const at = haystack.indexOf(char, from);
    if (at === -1) return 0;
    from = at + 1;
  }
  return 20;
}

export function scoreItem(item: Rankable, term: string): number {
  const titleScore = scoreText(item.title, term);
  const keywordScore = Math.max(0, ...(item.keywords ?? []).map((k) => scoreText(k, term) - 5));
  return Math.max(titleScore, keywordScore);
}

/** Items matching `term` (all of them, in order, when it is blank), best first, at most `limit`. */
export function rank<T extends Rankable>(items: readonly T[], rawTerm: string, limit = 50): T[] {
  const term = rawTerm.trim().toLowerCase();
  if (!term) return items.slice(0, limit);
  const scored: Array<{ item: T; score: number; index: number }> = [];
  items.forEach((item, index) => {
    const score = scoreItem(item, term);
    if (score > 0) scored.push({ item, score, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, limit).map((entry) => entry.item);
}
