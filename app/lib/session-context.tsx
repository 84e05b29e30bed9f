/** Hosts the session machine for the whole document and supplies its effects. */
import { useNavigate } from "@remix-run/react";
import { createActorContext } from "@xstate/react";
import { useRef, type ReactNode } from "react";
import { sessionMachine } from "../machines/session.machine";
import { notifyError } from "./feedback";
import { requestCheck, requestSignIn, requestSignOut } from "./session-effects";
import { useQuietRevalidate } from "./use-quiet-revalidate";
import { fromPromise } from "xstate";

export const SessionActor = createActorContext(sessionMachine);

export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const revalidate = useQuietRevalidate();
  // The machine is created once; effects read the latest router functions through refs.
  const router = useRef({ navigate, revalidate });
  router.current = { navigate, revalidate };
  const logic = useRef(
    sessionMachine.provide({
      actors: {
        signIn: fromPromise(({ input }) => requestSignIn(input)),
        checkSession: fromPromise(() => requestCheck()),
        signOut: fromPromise(() => requestSignOut()),
      },
      actions: {
        enterConsole: (_, { redirectTo }) => router.current.navigate(redirectTo, { replace: true }),
        // A full load replaces the tab's page, so nothing signed-in survives in memory.
        leaveConsole: () => window.location.replace("/login"),
        reportError: (_, { message }) => notifyError(message),
        refresh: () => router.current.revalidate(),
      },
    }),
  );
  return <SessionActor.Provider logic={logic.current}>{children}</SessionActor.Provider>;
}
