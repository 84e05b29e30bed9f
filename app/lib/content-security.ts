/**
 * The nonce that lets this page's inline scripts run under its Content-Security-Policy
 * (app/lib/content-security.server.ts). entry.server provides it; the browser never learns it
 * (it hides nonces from the DOM), so there the context is empty, which Remix's scripts accept
 * (they suppress the hydration warning).
 */
import { createContext, useContext } from "react";

export const ScriptNonce = createContext<string | undefined>(undefined);

export const useScriptNonce = () => useContext(ScriptNonce);
