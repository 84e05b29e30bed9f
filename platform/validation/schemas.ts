/**
 * The platform's shared zod building blocks: every route builds its params, query and body
 * from these, so a hostile value (a control character, a sub-cent or huge amount, a page
 * beyond any list) is a 400 naming its field, or a clamped page, and never reaches the
 * database. New modules use them too:
 *
 * - `Text({ max })`: trimmed text refusing control characters (C0, DEL, C1);
 * - `Secret`: a password as typed (not trimmed), refusing control characters;
 * - `Money`: a JSON number of at least 0.01 with at most 2 decimals, up to MAX_AMOUNT → minor units;
 * - `Decimal2({ min, max })`: a number with at most 2 decimals in a range (percentages, settings);
 * - `Paging`: `page` (an integer ≥ 1, clamped to MAX_PAGE) and `pageSize` (1 to PAGE_SIZE.max);
 *   `pageOf` answers such a page (offset, `{ items, total, page, pageSize }`) from a list and a count;
 * - `Id`: a bigint id sent as a decimal string; `blankless`: an empty query parameter is absent;
 * - `withMessage` / `exactIssue`: an answer whose wording the spec fixes.
 */
import { z, type ZodTypeAny } from "zod";
import { CONTROL_CHARACTER, CONTROL_CHARACTER_MESSAGE } from "../../protocol/rules.js";
import { PAGE_SIZE, type Page } from "../../protocol/wire.js";
import { amountToMinor } from "../money.js";

/** A zod issue whose message is the whole answer, without the `<field>: ` prefix. */
export const exactIssue = (message: string): z.IssueData => ({ code: z.ZodIssueCode.custom, message, params: { exact: true } });

export const isExactIssue = (issue: z.ZodIssue): boolean => issue.code === z.ZodIssueCode.custom && issue.params?.exact === true;

/** `schema`, except that any failure answers exactly `message`: for rules whose wording the spec fixes. */
export function withMessage<T extends ZodTypeAny>(schema: T, message: string) {
  return z.unknown().transform((value, ctx): z.output<T> => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    ctx.addIssue(exactIssue(message));
    return z.NEVER;
  });
}

// A query parameter sent empty (`?username=`) means "not given".
export const blankless = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((value) => (value === "" ? undefined : value), schema);

/**
 * Trimmed text of `min` (default 0; 1 answers "Required") to `max` characters without control
 * characters. `tooLong` replaces the whole answer when the text is too long (spec wording).
 */
export function Text({ max, min = 0, tooLong }: { max: number; min?: number; tooLong?: string }) {
  return z
    .string()
    .trim()
    .superRefine((text, ctx) => {
      if (CONTROL_CHARACTER.test(text)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: CONTROL_CHARACTER_MESSAGE });
      else if (text.length < min) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: min === 1 ? "Required" : `Must be at least ${min} characters` });
      } else if (text.length > max) {
        ctx.addIssue(tooLong ? exactIssue(tooLong) : { code: z.ZodIssueCode.custom, message: `Must be at most ${max} characters` });
      }
    });
}

/** `schema`, refusing text with a control character (for text that is not trimmed, e.g. passwords). */
export const withoutControlCharacters = (schema: z.ZodString) =>
  schema.refine((text) => !CONTROL_CHARACTER.test(text), CONTROL_CHARACTER_MESSAGE);

/** A password as typed: 1 to 128 characters, not trimmed, no control characters. */
export const Secret = (required: string) => withoutControlCharacters(z.string().min(1, required).max(128));

/** A bigint id, sent as a decimal string. */
export const Id = z.string().regex(/^\d{1,18}$/, "Invalid id").transform(BigInt);

/** Money: a JSON number of at least 0.01 with at most 2 decimals, up to MAX_AMOUNT → minor units. */
export const Money = withMessage(
  z
    .number()
    .refine((amount) => amountToMinor(amount) !== null)
    .transform((amount) => amountToMinor(amount)!),
  "Invalid amount",
);

/**
 * A finite number from `min` (or above it, with `aboveMin`) to `max` with at most 2 decimals. The
 * check is exact: the number must be the double nearest its own hundredths, so 0.29 passes while
 * 1e-9 and 5e-324 (which a tolerance would round to 0) and 1.005 are refused.
 */
export const Decimal2 = ({ min, max, aboveMin = false }: { min: number; max: number; aboveMin?: boolean }) =>
  z
    .number()
    .finite()
    .refine((value) => (aboveMin ? value > min : value >= min) && value <= max, aboveMin ? `Must be above ${min} and at most ${max}` : `Must be from ${min} to ${max}`)
    .refine((value) => value === Math.round(value * 100) / 100, "Must have at most 2 decimals");

/** The last page a list answers; a later one is clamped to it (and is empty). */
export const MAX_PAGE = 1_000_000;

/** `page` and `pageSize` of a list query (docs/protocol.md "Pages"); extend it with the list's own fields. */
export const Paging = z.object({
  page: blankless(
    z.coerce
      .number()
      .int()
      .min(1)
      .default(1)
      .transform((page) => Math.min(page, MAX_PAGE)),
  ),
  pageSize: blankless(z.coerce.number().int().min(1).max(PAGE_SIZE.max).default(PAGE_SIZE.default)),
});

/** The page a list query asks for. */
export type PageRequest = z.output<typeof Paging>;

/** The rows of one page, as a repository reads them (`.offset(offset).limit(limit)`). */
export type Slice = { offset: number; limit: number };

/**
 * One page of a list (docs/protocol.md "Pages"): reads the page's rows through `list` and the
 * list's `total` through `count` at once (on PostgreSQL two connections of the pool), and
 * answers them with the page asked for.
 */
export async function pageOf<Item>(
  { page, pageSize }: PageRequest,
  list: (slice: Slice) => Promise<Item[]>,
  count: () => Promise<number>,
): Promise<Page<Item>> {
  const [items, total] = await Promise.all([list({ offset: (page - 1) * pageSize, limit: pageSize }), count()]);
  return { items, total, page, pageSize };
}
