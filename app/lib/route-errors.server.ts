/** Turns a failed upstream call into the status and page the operator should see instead. */
import { ApiError } from "./api.server";

/**
 * An upstream 4xx is the request's own fault and keeps its status (400 `user: Invalid id`, 404);
 * no answer, a timeout, an unreadable answer or an upstream 5xx is a bad gateway.
 */
export const upstreamStatus = (error: ApiError): number => (error.outcomeUnknown ? 502 : error.httpStatus!);

export async function orRouteError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new Response(error.message, { status: upstreamStatus(error) });
  }
}
