/**
 * What a failed route shows: the not-found page (404), the Permission Denied page (403; it shows
 * 404 as the spec's product did), or docs/product.md §8's `Unexpected Application Error!` with the message.
 */
import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { MESSAGES } from "../../lib/constants";
import { isUnreachable } from "../../lib/outage";

export function NotFound() {
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-code">404</p>
      <h2 id="error-title">Not Found</h2>
      <p className="dim">There is no screen at this address.</p>
      <Link to="/">Go to Home</Link>
    </section>
  );
}

export function PermissionDenied() {
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-code">404</p>
      <h2 id="error-title">Permission Denied</h2>
      <p className="dim">Your account does not have access to this screen.</p>
      <Link to="/">Go to Home</Link>
    </section>
  );
}

export function UnexpectedError({ message }: { message: string }) {
  return (
    <section className="error-page" role="alert">
      <h2>Unexpected Application Error!</h2>
      <pre className="error-message">{message}</pre>
    </section>
  );
}

export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <NotFound />;
    if (error.status === 403) return <PermissionDenied />;
    return <UnexpectedError message={typeof error.data === "string" && error.data ? error.data : `${error.status} ${error.statusText}`} />;
  }
  return <UnexpectedError message={messageOfThrown(error)} />;
}

/** What a thrown error says; a screen the console could not be reached for says so plainly. */
export const messageOfThrown = (error: unknown): string =>
  isUnreachable(error) ? MESSAGES.screenUnreachable : error instanceof Error ? error.message : String((error as { data?: unknown })?.data ?? error);
