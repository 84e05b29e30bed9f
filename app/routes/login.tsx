/** Spec §2.4: username and password; Login stays disabled until both are filled. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect, useSearchParams } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { notifyError } from "~/lib/feedback";
import { firstIssue } from "~/lib/forms/first-issue";
import { loginSchema } from "~/lib/forms/login";
import { titleMeta, type PageHandle } from "~/lib/page";
import { SessionActor } from "~/lib/session-context";
import { readSession } from "~/lib/session.server";

export const handle: PageHandle = { title: "Login" };
export const meta = titleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  if (await readSession(request)) throw redirect("/");
  return null;
}

export default function Login() {
  const [params] = useSearchParams();
  const session = SessionActor.useActorRef();
  const busy = SessionActor.useSelector((snapshot) => snapshot.hasTag("busy"));
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");

  // Being here means signed out, whatever the machine last knew (e.g. a server-side redirect).
  useEffect(() => session.send({ type: "session.cleared" }), [session]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = loginSchema.safeParse({ username, password, redirectTo: params.get("redirectTo") ?? undefined });
    if (!form.success) return notifyError(firstIssue(form.error));
    session.send({ type: "session.submit", credentials: form.data });
  };

  return (
    <main className="login">
      <form className="login-form" onSubmit={submit} aria-labelledby="login-title">
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
        <button type="submit" disabled={!username.trim() || !password || busy} aria-busy={busy}>
          {busy ? "Signing in…" : "Login"}
        </button>
      </form>
    </main>
  );
}
