/**
 * Route schemas are zod schemas: Fastify validates params, querystring and the decrypted
 * body with them (after the envelope plugin's preValidation hook), and the type provider
 * gives handlers the parsed types. A ZodError reaches the error handler as a 400.
 */
import type { FastifySchemaCompiler, FastifyTypeProvider } from "fastify";
import { z, type ZodTypeAny } from "zod";
import { amountToMinor } from "../money.js";

export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this["schema"] extends ZodTypeAny ? z.output<this["schema"]> : unknown;
  serializer: this["schema"] extends ZodTypeAny ? z.input<this["schema"]> : unknown;
}

export const zodValidatorCompiler: FastifySchemaCompiler<ZodTypeAny> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: result.error };
  };

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

/** A bigint id, sent as a decimal string. */
export const Id = z.string().regex(/^\d{1,18}$/, "Invalid id").transform(BigInt);

/** Money: a JSON number above 0 with at most 2 decimals, up to MAX_AMOUNT → minor units. */
export const Amount = withMessage(
  z
    .number()
    .refine((amount) => amountToMinor(amount) !== null)
    .transform((amount) => amountToMinor(amount)!),
  "Invalid amount",
);
