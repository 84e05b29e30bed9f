/**
 * The palette's own filter and ranking (cmdk's built-in filter is off: it slows past a few
 * thousand items). A term's match falls in a class, best first: the whole title's prefix, a word
 * of the title's prefix, a keyword's (or a keyword word's) prefix, a substring, a subsequence.
 * Inside a class, the operator's own use (`boost`, their frecency: app/lib/frecency.ts) orders
 * ties and near-ties, and never lifts an item into a better class. Lower-cased text and word
 * starts are computed once per item (`prepare`), so a keystroke over 10,000 entries only
 * compares strings.
 */
export type Rankable = {
  title: string;
  keywords?: readonly string[];
  /** The operator's use of this item, 0 (never) to 1: orders the item within its match class. */
  boost?: number;
};

type Prepared<T> = { item: T; boost: number; texts: Array<{ text: string; words: string[]; title: boolean }> };

/** Each class's base score; classes are CLASS_GAP apart, more than a boost or a length can add. */
const CLASS = { titlePrefix: 400, titleWord: 300, keyword: 200, substring: 100, subsequence: 0 } as const;
/** What the strongest use adds inside a class. */
const BOOST_SPAN = 60;
/** What a title prefix gains by being short (of the rest of the title, up to 50 characters): a tie-break. */
const LENGTH_SPAN = 0.5;

export function prepare<T extends Rankable>(items: readonly T[]): Array<Prepared<T>> {
  return items.map((item) => ({
    item,
    boost: Math.min(1, Math.max(0, item.boost ?? 0)),
    texts: [item.title, ...(item.keywords ?? [])].map((raw, index) => {
      const text = raw.toLowerCase();
      return { text, words: text.split(/[\s\-_/]+/), title: index === 0 };
    }),
  }));
}

/** The class score of `term` in one text, or -1 when it does not match. */
function scoreText(text: string, words: string[], title: boolean, term: string): number {
  if (text.startsWith(term)) return title ? CLASS.titlePrefix + (LENGTH_SPAN * (50 - Math.min(text.length - term.length, 50))) / 50 : CLASS.keyword;
  for (const word of words) if (word.startsWith(term)) return title ? CLASS.titleWord : CLASS.keyword;
  if (text.includes(term)) return CLASS.substring;
  let from = 0;
  for (let i = 0; i < term.length; i++) {
    const at = text.indexOf(term[i]!, from);
    if (at === -1) return -1;
    from = at + 1;
  }
  return CLASS.subsequence;
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
    const entry = prepared[index]!;
    let best = -1;
    for (const { text, words, title } of entry.texts) best = Math.max(best, scoreText(text, words, title, term));
    if (best >= 0) scored.push({ index, score: best + entry.boost * BOOST_SPAN });
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
