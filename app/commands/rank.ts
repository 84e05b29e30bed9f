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

export type Ranking<T> = {
  /** The best matches, best first, at most `limit`. */
  ranked: T[];
  /** Every match's index, in order: what a longer term needs to look at. */
  matched: number[];
};

/**
 * Prepared items matching `term` (all, in order, when blank). Every kind of match is kept by a
 * shorter term (a prefix, a word prefix, a substring or a subsequence of "abc" is one of "ab"
 * too), so `within`, the matches of a term this one extends, is all that needs looking at.
 */
export function rankPrepared<T>(
  prepared: ReadonlyArray<Prepared<T>>,
  rawTerm: string,
  limit = 50,
  within?: readonly number[],
): Ranking<T> {
  const term = rawTerm.trim().toLowerCase();
  if (!term) return { ranked: prepared.slice(0, limit).map((entry) => entry.item), matched: prepared.map((_, i) => i) };
  const scored: Array<{ index: number; score: number }> = [];
  const candidates = within ?? prepared.keys();
  for (const index of candidates) {
    let best = 0;
    for (const { text, words, penalty } of prepared[index]!.texts) {
      const score = scoreText(text, words, term);
      if (score > 0) best = Math.max(best, score - penalty);
    }
    if (best > 0) scored.push({ index, score: best });
  }
  const matched = scored.map((entry) => entry.index);
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return { ranked: scored.slice(0, limit).map((entry) => prepared[entry.index]!.item), matched };
}

/**
 * Ranks as the operator types: remembers each term's ranking, so Backspace is a lookup and a
 * longer term only looks at the matches of the term it extends.
 */
export function createIncrementalRanker<T>(prepared: ReadonlyArray<Prepared<T>>, limit: number) {
  const seen = new Map<string, Ranking<T>>();
  return (rawTerm: string): T[] => {
    const term = rawTerm.trim().toLowerCase();
    const known = seen.get(term);
    if (known) return known.ranked;
    let within: readonly number[] | undefined;
    for (let length = term.length - 1; length > 0 && !within; length--) within = seen.get(term.slice(0, length))?.matched;
    const ranking = rankPrepared(prepared, term, limit, within);
    seen.set(term, ranking);
    return ranking.ranked;
  };
}

/** How many choices a pick step over a server list shows at once. */
export const CHOICE_LIMIT = 30;

/**
 * A list's choices ranked by their titles as the palette ranks commands: `narrow(term)` answers
 * the best matches of a term (the whole list, in its order, while blank), at most `limit`.
 */
export function narrowChoices<T>(choices: readonly T[], titleOf: (choice: T) => string, limit = CHOICE_LIMIT) {
  const rank = createIncrementalRanker(
    prepare(choices.map((choice) => ({ title: titleOf(choice), choice }))),
    limit,
  );
  return (term: string): T[] => rank(term).map((entry) => entry.choice);
}
