/**
 * Route schemas are zod schemas: Fastify validates params, querystring and the decrypted
 * body with them (after the envelope plugin's preValidation hook), and the type provider
 * gives handlers the parsed types. A ZodError reaches the error handler as a 400. The
 * schemas themselves are built from platform/validation/schemas.ts.
 */
import type { FastifySchemaCompiler, FastifyTypeProvider } from "fastify";
import type { z, ZodTypeAny } from "zod";

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
