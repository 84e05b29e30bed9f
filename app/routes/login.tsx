/**
 * docs/product.md §2.4: username and password; Login stays disabled until both are filled. A real POST
 * form: with JavaScript the session machine signs in; before hydration or without JavaScript
 * the browser posts it here and the action signs in, so the password never goes in a URL.
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
import { SessionActor } from "~/lib/session-context";
import { signIn, type SignInAnswer } from "~/lib/session-flow.server";
import { readSession } from "~/lib/session.server";
import { secondStepView } from "~/lib/mfa/sign-in.server";

export const handle: PageHandle = { title: "Login" };
export const meta = titleMeta;

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await readSession(request, context)) throw redirect("/");
  // After the password, a sign-in that needs a second factor waits here for it (issue 30).
  return { secondStep: new URL(request.url).searchParams.has("step") ? await secondStepView(request, context) : null };
}

/** The form posted without JavaScript: the same sign-in as /session, answered as a page. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = Object.fromEntries(await readForm(request));
  const answer = await signIn(request, context, form);
  const result = (await answer.json()) as SignInAnswer;
  if (!result.ok) return Response.json({ message: result.message }, { status: answer.status });
  throw redirect(result.redirectTo, { headers: { "Set-Cookie": answer.headers.get("Set-Cookie") ?? "" } });
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
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  // Being here means signed out, whatever the machine last knew (e.g. a server-side redirect).
  useEffect(() => session.send({ type: "session.cleared" }), [session]);

  // Keys typed after Enter wait for the shell (app/lib/key-buffer.ts); a refused sign-in or its
  // second step gives them back to this page.
  useEffect(() => {
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
        <SecondStep view={secondStep} redirectTo={params.get("redirectTo") ?? undefined} />
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
