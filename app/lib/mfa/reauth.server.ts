/**
 * Re-authentication (issue 30): the sensitive changes (four-eyes thresholds, staff, the factor
 * policy, the allowlist, approving a held action, starting a bulk job) need a second factor given
 * within the last five minutes. The server refuses otherwise with a 401 whose `reauth` flag the
 * browser turns into the prompt, then sends the same action again. An operator with no factor
 * (development's default) is not asked.
 */
import type { AppLoadContext } from "@remix-run/node";
import type { Outcome } from "../feedback";
import { requireSession, type Session } from "../session.server";
import { touchFactor } from "../store/sessions.server";
import { enrolmentOf, type Factor } from "./second-factor.server";

export const REAUTH_SECONDS = 5 * 60;
export const REAUTH_MESSAGE = "Confirm it is you: give your second factor";

/** The answer that asks for the prompt. */
export type ReauthOutcome = Outcome & { reauth?: true };

const givenRecently = (session: Session): boolean =>
  session.factor !== "password" && Date.now() - session.factorAt.getTime() < REAUTH_SECONDS * 1000;

/** Null when the action may go ahead; else the 401 to answer instead of performing it (a form's Outcome, JSON). */
export async function reauthNeeded(request: Request, context: AppLoadContext): Promise<Response | null> {
  const session = await requireSession(request, context);
  if (!context.store || givenRecently(session) || !(await enrolmentOf(context.store, session.username)).enrolled) return null;
  return Response.json({ ok: false, message: REAUTH_MESSAGE, reauth: true } satisfies ReauthOutcome, { status: 401 });
}

/** A factor given now on this session: the next five minutes' sensitive changes go ahead. */
export const markFactorGiven = (context: AppLoadContext, session: Session, factor: Factor): Promise<void> =>
  context.store ? touchFactor(context.store, session.id, factor) : Promise.resolve();
