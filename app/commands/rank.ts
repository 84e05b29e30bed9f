/**
 * The palette's own filter and ranking (cmdk's built-in filter is off: it slows past a few
 * thousand items). Scores: whole-title prefix > word prefix > substring > subsequence.
 * Lower-cased text and word starts are computed once per item (`prepare`), so a keystroke over
 * 10,000 entries only compares strings.
 */
export type Rankable = { title: string; keywords?: readonly string[] };

type Prepared<T> = { item: T; texts: Array<{ text: string; words: string[]; penalty: number }> };

const KEYWORD_PENALTY = 5;

export function prepare<T extends Rankable>(items: readonly T[]): Array<Prepared<T>> {
  return items.map((item) => ({
    item,
    texts: [item.title, ...(item.keywords ?? [])].map((raw, index) => {
      const text = raw.toLowerCase();
      return { text, words: text.split(/[\s\-_/]+/), penalty: index === 0 ? 0 : KEYWORD_PENALTY };
    }),
  }));
}

function scoreText(text: string, words: string[], term: string): number {
  if (text.startsWith(term)) return 100 - Math.min(text.length - term.length, 50) / 100;
  for (const word of words) if (word.startsWith(term)) return 80;
  if (text.includes(term)) return 60;
  let from = 0;
  for (let i = 0; i < term.length; i++) {
    const at = text.indexOf(term[i]!, from);
    if (at === -1) return 0;
    from = at + 1;
  }
  return 20;
}

/** Prepared items matching `term` (all, in order, when blank), best first, at most `limit`. */
export function rankPrepared<T>(prepared: ReadonlyArray<Prepared<T>>, rawTerm: string, limit = 50): T[] {
  const term = rawTerm.trim().toLowerCase();
  if (!term) return prepared.slice(0, limit).map((entry) => entry.item);
  const scored: Array<{ item: T; score: number; index: number }> = [];
  for (let index = 0; index < prepared.length; index++) {
    let best = 0;
    for (const { text, words, penalty } of prepared[index]!.texts) {
      const score = scoreText(text, words, term);
      if (score > 0) best = Math.max(best, score - penalty);
    }
    if (best > 0) scored.push({ item: prepared[index]!.item, score: best, index });
  }
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, limit).map((entry) => entry.item);
}
