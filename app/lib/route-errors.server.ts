/** Turns a failed upstream read into the page the operator should see instead of the screen. */
import { ApiError } from "./api.server";

/**
 * An upstream 4xx is the request's own fault and keeps its status and message (400 `user: Invalid
 * id`, 404); no answer, a timeout, an unreadable answer or an upstream 5xx is a bad gateway.
 */
export async function orRouteError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const upstream = error.httpStatus ?? 502;
    throw new Response(error.message, { status: upstream >= 400 && upstream < 500 ? upstream : 502 });
  }
}
