import type { LinksFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteError } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { Toaster } from "react-hot-toast";
import { messageOfThrown, UnexpectedError } from "./components/ui/RouteError";
import { keyBufferScript } from "./commands/keymap";
import { TOAST } from "./lib/constants";
import { useScriptNonce } from "./lib/content-security";
import { env } from "./lib/env.server";
import { setDisplayTimeZone } from "./lib/format";
import { HOLD, releaseKeys, retypeFields } from "./lib/key-buffer";
import { documentTitle } from "./lib/page";
import { SessionProvider } from "./lib/session-context";
import styles from "./styles/app.css?url";
import "./lib/load-context";

/** Configuration the browser needs: the zone every time shows in (read once at boot). */
export const loader = () => ({ timeZone: env.TIME_ZONE });
// Never read again: single fetch would otherwise reload it on every navigation (docs/benchmarks.md, `g` + letter).
export const shouldRevalidate = () => false;

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

const KEY_BUFFER_SCRIPT = keyBufferScript();

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useScriptNonce();
  // Hydrated: what fields typed meanwhile is typed again for React, and the keys held since the
  // first byte replay to the page's own listeners (app/lib/key-buffer.ts).
  useEffect(() => {
    releaseKeys(HOLD.hydrating);
    retypeFields(document);
  }, []);
  return (
    <html lang="en">
      <head>
        {/* First of all, so no key typed while the page loads is lost (docs/ux.md "Keys typed early"). */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: KEY_BUFFER_SCRIPT }} />
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * A fetcher load that is superseded (a search typed further) or whose component closed (a pick
 * step answered) is aborted, and single fetch can surface that abort as an unhandled rejection
 * (react-router issue #14203). Those are cancellations the console asked for: drop exactly them.
 */
function useQuietAborts() {
  useEffect(() => {
    const onRejection = (event: PromiseRejectionEvent) => {
      if (event.reason instanceof DOMException && event.reason.name === "AbortError") event.preventDefault();
    };
    window.addEventListener("unhandledrejection", onRejection);
    return () => window.removeEventListener("unhandledrejection", onRejection);
  }, []);
}

export default function App() {
  // Before any child renders, so the server's and the browser's times agree.
  setDisplayTimeZone(useLoaderData<typeof loader>().timeZone);
  useQuietAborts();
  return (
    <SessionProvider>
      <Outlet />
      <Toaster
        position="top-right"
        toastOptions={{ duration: TOAST.durationMs, className: "toast", ariaProps: { role: "status", "aria-live": "polite" } }}
      />
    </SessionProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <main className="page">
      <title>{documentTitle("Error")}</title>
      <UnexpectedError message={messageOfThrown(error)} />
    </main>
  );
}
