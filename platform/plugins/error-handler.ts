/**
 * The one place a failure becomes a response: `{status: "FAIL", msg, data: null}` with a
 * truthful HTTP status, whatever threw (HttpError, zod, Fastify itself, or a bug).
 */
import fp from "fastify-plugin";
import { ZodError } from "zod";
import { WIRE_MESSAGE, type WireResponse } from "../../protocol/wire.js";
import { badRequest, HttpError, notFound, payloadTooLarge } from "../errors.js";
import { INVALID_PAYLOAD } from "./envelope.js";
import { isExactIssue } from "../validation/schemas.js";

// Fastify's own errors whose message we reword for the wire; other 4xx pass through.
const FASTIFY_ERRORS: Record<string, () => HttpError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => payloadTooLarge(),
  FST_ERR_CTP_INVALID_JSON_BODY: () => badRequest(INVALID_PAYLOAD),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => badRequest(INVALID_PAYLOAD),
};

/** What an unknown route answers; the spec profile answers an extension call the same (plugins/profile.ts). */
export const UNKNOWN_ROUTE = "Not found";

type FastifyError = Error & { code: string; statusCode: number };

const isFastifyClientError = (error: unknown): error is FastifyError =>
  error instanceof Error &&
  typeof (error as Partial<FastifyError>).code === "string" &&
  (error as FastifyError).code.startsWith("FST_") &&
  typeof (error as Partial<FastifyError>).statusCode === "number" &&
  (error as FastifyError).statusCode >= 400 &&
  (error as FastifyError).statusCode < 500;

/** "password: String must contain at least 6 character(s)": the first problem, naming its field. */
function describeZodError(error: ZodError & { validationContext?: string }): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid request";
  if (isExactIssue(issue)) return issue.message;
  const field = issue.path.join(".") || error.validationContext || "body";
  return `${field}: ${issue.message}`;
}

function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof ZodError) return badRequest(describeZodError(error));
  if (isFastifyClientError(error)) {
    return FASTIFY_ERRORS[error.code]?.() ?? new HttpError(error.statusCode, error.message);
  }
  return undefined;
}

/** What a failure answers on the wire: its HTTP status and message; `known` false for a bug (500, logged by the caller). */
export function wireFailureOf(error: unknown): { code: number; msg: string; known: boolean; headers: Readonly<Record<string, string>> } {
  const known = toHttpError(error);
  return { code: known?.statusCode ?? 500, msg: known?.message ?? WIRE_MESSAGE.fallback, known: known !== undefined, headers: known?.headers ?? {} };
}

export default fp(
  async function errorHandler(app) {
    app.setNotFoundHandler(() => {
      throw notFound(UNKNOWN_ROUTE);
    });

    app.setErrorHandler((error, request, reply) => {
      const failure = wireFailureOf(error);
      if (!failure.known) request.log.error({ err: error }, "request failed");
      const body: WireResponse = { status: "FAIL", msg: failure.msg, data: null };
      return reply.code(failure.code).headers(failure.headers).send(body);
    });
  },
  { name: "error-handler" },
);
