/**
 * docs/product.md §2.4: username and password; Login stays disabled until both are filled. A real POST
 * form: with JavaScript the session machine signs in; before hydration or without JavaScript
 * the browser posts it here and the action signs in, so the password never goes in a URL. The
 * second step's code form (issue 30) posts here the same way (`intent` SECOND_STEP_INTENT).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { SecondStep } from "~/components/security/SecondStep";
import { notifyError } from "~/lib/feedback";
import { firstIssue } from "~/lib/forms/first-issue";
import { HOLD, holdKeys, releaseKeys } from "~/lib/key-buffer";
import { loginSchema } from "~/lib/forms/login";
import { readForm } from "~/lib/forms/run-form.server";
import { titleMeta, type PageHandle } from "~/lib/page";
import { useHydrated } from "~/lib/use-hydrated";
import { useBrowserLayoutEffect } from "~/components/ui/use-browser-layout-effect";
import { SessionActor } from "~/lib/session-context";
import { signIn } from "~/lib/session-flow.server";
import { readSession } from "~/lib/session.server";
import { secondStepAddress, secondStepByForm, secondStepView, type SignedInAnswer } from "~/lib/mfa/sign-in.server";
import { SECOND_STEP_INTENT } from "~/lib/forms/second-factor";

export const handle: PageHandle = { title: "Login" };
export const meta = titleMeta;

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await readSession(request, context)) throw redirect("/");
  // After the password, a sign-in that needs a second factor waits here for it (issue 30).
  return { secondStep: new URL(request.url).searchParams.has("step") ? await secondStepView(request, context) : null };
}

/**
 * A form posted without JavaScript (or before hydration): the same sign-in as /session, or the
 * same second step as /resources/second-factor, answered as a page. A second step that waited too
 * long goes back to it, which then asks for the password again.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = Object.fromEntries(await readForm(request));
  const redirectTo = typeof form.redirectTo === "string" && form.redirectTo ? form.redirectTo : undefined;
  const answer = form.intent === SECOND_STEP_INTENT ? await secondStepByForm(request, context, form, redirectTo) : await signIn(request, context, form);
  const result = (await answer.json()) as SignedInAnswer;
  if (!result.ok && result.expired) throw redirect(secondStepAddress(redirectTo));
  if (!result.ok) return Response.json({ message: result.message }, { status: answer.status });
  // Both cookies where there are two: the session's, and the pending sign-in's cleared.
  const headers = new Headers();
  for (const cookie of answer.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  throw redirect(result.redirectTo, { headers });
}

export default function Login() {
  const [params] = useSearchParams();
  const session = SessionActor.useActorRef();
  const busy = SessionActor.useSelector((snapshot) => snapshot.hasTag("busy"));
  // Signed out and not signing in: a sign-in just refused (or none yet).
  const idle = SessionActor.useSelector((snapshot) => snapshot.hasTag("signedOut") && !snapshot.hasTag("busy"));
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const refused = useActionData<typeof action>();
  const { secondStep } = useLoaderData<typeof loader>();
  // Until hydration the browser submits the form itself, so Login must not start disabled.
  const hydrated = useHydrated();

  // Being here means signed out, whatever the machine last knew (e.g. a server-side redirect).
  useEffect(() => session.send({ type: "session.cleared" }), [session]);

  // Keys typed after Enter wait for the shell (app/lib/key-buffer.ts); a refused sign-in or its
  // second step gives them back to this page, in the commit that shows it: given back after the
  // paint, a code typed as its field appeared was held, and its Enter, replayed, submitted nothing.
  useBrowserLayoutEffect(() => {
    if (idle || secondStep) releaseKeys(HOLD.signIn);
  }, [idle, secondStep]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = loginSchema.safeParse({ username, password, redirectTo: params.get("redirectTo") ?? undefined });
    if (!form.success) return notifyError(firstIssue(form.error));
    holdKeys(HOLD.signIn);
    session.send({ type: "session.submit", credentials: form.data });
  };

  if (secondStep) {
    return (
      <main className="login">
        <SecondStep view={secondStep} redirectTo={params.get("redirectTo") ?? undefined} refused={refused?.message} />
      </main>
    );
  }
  return (
    <main className="login">
      {params.has("step") ? <p role="alert">The sign-in waited too long for its second factor: sign in again.</p> : null}
      <form method="post" className="login-form" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">
          betdesk <span className="dim">admin</span>
        </h1>
        <label>
          Username
          <input
            name="username"
            autoComplete="username"
            autoFocus
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
        {refused ? <p role="alert">{refused.message}</p> : null}
        <button type="submit" disabled={hydrated && (!username.trim() || !password || busy)} aria-busy={busy}>
          {busy ? "Signing in…" : "Login"}
        </button>
      </form>
    </main>
  );
}
