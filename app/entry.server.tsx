/**
 * Remix's Node entry (its default, both ways of rendering in one) with the page's script nonce:
 * drawn per answer, handed to React, RemixServer and the root's scripts, and sent in the
 * Content-Security-Policy (app/lib/content-security.server.ts).
 */
import { PassThrough } from "node:stream";
import type { EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { ScriptNonce } from "./lib/content-security";
import { contentSecurityPolicy, newScriptNonce } from "./lib/content-security.server";

const ABORT_DELAY = 5_000;

export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  // Crawlers and SPA mode get the whole page at once; browsers get it streamed from the shell on.
  const ready: keyof RenderToPipeableStreamOptions =
    isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode ? "onAllReady" : "onShellReady";
  const nonce = newScriptNonce();
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <ScriptNonce.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </ScriptNonce.Provider>,
      {
        nonce,
        [ready]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html");
          responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce, { development: import.meta.env.DEV }));
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors of the shell itself reject, and Remix logs them.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
