/**
 * The one error type routes and services throw for an expected failure. The error
 * handler turns it into `{status: "FAIL", msg, data: null}` with `statusCode`.
 */
export class HttpError extends Error {
  override readonly name = "HttpError";
  constructor(
    readonly statusCode: number,
    message: string,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export const badRequest = (msg: string) => new HttpError(400, msg);
export const unauthorized = (msg: string) => new HttpError(401, msg);
export const forbidden = (msg = "Permission denied") => new HttpError(403, msg);
export const notFound = (msg: string) => new HttpError(404, msg);
export const conflict = (msg: string) => new HttpError(409, msg);
export const payloadTooLarge = (msg = "Request body is too large") => new HttpError(413, msg);
export const tooManyRequests = (msg: string, retryAfterSeconds: number) =>
  new HttpError(429, msg, { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
