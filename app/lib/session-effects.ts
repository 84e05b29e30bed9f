/**
 * The session machine's effects in the browser: calls to the console's own /session resource
 * route (same origin, the cookie rides along; the upstream token never comes back).
 */
import type { CheckResult, Credentials, SignedIn } from "../machines/session.machine";
import { MESSAGES } from "./constants";

async function postSession(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch("/session", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok || !answer?.ok) {
    throw new Error(typeof answer?.message === "string" && answer.message ? answer.message : MESSAGES.fallback);
  }
  return answer;
}

export async function requestSignIn(credentials: Credentials): Promise<SignedIn> {
  const answer = await postSession({ intent: "signIn", ...credentials });
  return { redirectTo: String(answer.redirectTo ?? "/") };
}

export async function requestSignOut(): Promise<void> {
  await postSession({ intent: "signOut" });
}

export async function requestCheck(): Promise<CheckResult> {
  const response = await fetch("/session", { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`session check answered ${response.status}`);
  const { state } = (await response.json()) as { state: CheckResult };
  return state;
}
