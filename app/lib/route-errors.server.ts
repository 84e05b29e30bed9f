/** Turns a failed upstream read into the page the operator should see instead of the screen. */
import { ApiError } from "./api.server";

export async function orRouteError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const status = error.httpStatus === 403 || error.httpStatus === 404 ? error.httpStatus : 502;
    throw new Response(error.message, { status });
  }
}
