/**
 * The browser's half of the second factor (issue 30): JSON calls to /resources/second-factor, the
 * passkey ceremonies through @simplewebauthn/browser, and the re-authentication prompt that any
 * action answered with `reauth` opens, resolving once the operator gave a factor (or gave up).
 */
import { MESSAGES } from "./constants";
import type { FactorAnswer } from "./forms/second-factor";

export const CEREMONY_PATH = "/resources/second-factor";

/**
 * The passkey ceremonies' library, loaded when a passkey is used: every screen's shell answers the
 * re-authentication prompt, and with the library its first load was 2.7 KB more (docs/benchmarks.md,
 * "First-load JavaScript").
 */
const webAuthn = () => import("@simplewebauthn/browser");

export type CeremonyAnswer = { ok: boolean; message?: string; expired?: boolean; [field: string]: unknown };

export async function postCeremony(body: Record<string, unknown>): Promise<CeremonyAnswer> {
  const response = await fetch(CEREMONY_PATH, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => null)) as CeremonyAnswer | null;
  return answer ?? { ok: false, message: MESSAGES.fallback };
}

/** Signs the server's challenge with a passkey: `optionsIntent` names whose challenge (a pending sign-in's, or a re-authentication's). */
export async function passkeyAnswer(optionsIntent: "signInOptions" | "reauthOptions"): Promise<FactorAnswer | string> {
  const answer = await postCeremony({ intent: optionsIntent });
  if (!answer.ok) return answer.message ?? MESSAGES.fallback;
  try {
    const { startAuthentication } = await webAuthn();
    const response = await startAuthentication({ optionsJSON: answer.options as Parameters<typeof startAuthentication>[0]["optionsJSON"] });
    return { method: "passkey", response: { ...response } };
  } catch (error) {
    return `The passkey did not answer: ${(error as Error).message}`;
  }
}

/** Registers a new passkey named `name`: the server's answer (its recovery codes when it is the first factor). */
export async function registerPasskey(name: string): Promise<CeremonyAnswer> {
  const options = await postCeremony({ intent: "passkeyOptions" });
  if (!options.ok) return options;
  try {
    const { startRegistration } = await webAuthn();
    const response = await startRegistration({ optionsJSON: options.options as Parameters<typeof startRegistration>[0]["optionsJSON"] });
    return await postCeremony({ intent: "passkeyAdd", name, response });
  } catch (error) {
    return { ok: false, message: `The passkey was not made: ${(error as Error).message}` };
  }
}

// --- The re-authentication prompt ----------------------------------------------------------

type Asking = (confirmed: boolean) => void;
let asking: Asking | null = null;
const listeners = new Set<(open: boolean) => void>();

/** Opens the prompt; resolves true once a factor was accepted, false when the operator cancelled. */
export function askForFactor(): Promise<boolean> {
  return new Promise((resolve) => {
    asking?.(false);
    asking = resolve;
    for (const listener of listeners) listener(true);
  });
}

/** The prompt closes, answering whoever asked. */
export function answerFactorPrompt(confirmed: boolean): void {
  const resolve = asking;
  asking = null;
  for (const listener of listeners) listener(false);
  resolve?.(confirmed);
}

export function onFactorPrompt(listener: (open: boolean) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether an action's answer asks for the prompt (reauth.server.ts). */
export const asksForFactor = (answer: unknown): boolean => Boolean(answer && typeof answer === "object" && (answer as { reauth?: unknown }).reauth === true);
