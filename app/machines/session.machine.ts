/**
 * The operator's session in the browser: signed out → signing in → signed in ⇄ checking → signed out.
 * Pure: every effect (HTTP, navigation, toasts) is a named actor or action supplied with `.provide()`.
 * The UI reads tags (`signedIn`, `busy`), never state names.
 */
import { assign, fromPromise, setup } from "xstate";
import { messageOf } from "./error-message";

export type Credentials = { username: string; password: string; redirectTo?: string };
/** Where to go once signed in: a local path the server vetted. */
export type SignedIn = { redirectTo: string };
/** `ended`: the logout check answered true or the account is gone (`Admin not found`). */
export type CheckResult = "active" | "ended";

/** Effects are supplied by the UI (or a test) through `.provide()`. */
const notProvided = (name: string) => new Error(`session machine: ${name} was not provided`);

export const SESSION_CHECK_MS = 30_000;

export const sessionMachine = setup({
  types: {
    context: {} as { error: string | null },
    events: {} as
      | { type: "session.submit"; credentials: Credentials }
      | { type: "session.logout" }
      | { type: "session.check" }
      /** A signed-in page is showing (first load with a cookie, or a sign-in from another tab). */
      | { type: "session.resumed" }
      /** The server already ended the session (e.g. a loader redirected to /login and cleared the cookie). */
      | { type: "session.cleared" },
  },
  actors: {
    signIn: fromPromise<SignedIn, Credentials>(async () => {
      throw notProvided("signIn");
    }),
    checkSession: fromPromise<CheckResult, void>(async () => {
      throw notProvided("checkSession");
    }),
    signOut: fromPromise<void, void>(async () => {
      throw notProvided("signOut");
    }),
  },
  actions: {
    /** Navigate into the console. */
    enterConsole: (_, _params: SignedIn) => {},
    /** Leave for the login screen, dropping every signed-in page from the tab. */
    leaveConsole: () => {},
    /** Show a failed sign-in's message. */
    reportError: (_, _params: { message: string }) => {},
    /** A check passed: refresh what the shell shows (balance, name). */
    refresh: () => {},
  },
  delays: { checkInterval: SESSION_CHECK_MS },
}).createMachine({
  id: "session",
  context: { error: null },
  initial: "signedOut",
  states: {
    signedOut: {
      tags: ["signedOut"],
      on: {
        "session.submit": { target: "signingIn", actions: assign({ error: null }) },
        "session.resumed": "signedIn",
      },
    },
    signingIn: {
      tags: ["signedOut", "busy"],
      invoke: {
        src: "signIn",
        input: ({ event }) => {
          if (event.type !== "session.submit") throw new Error(`signIn started by ${event.type}`);
          return event.credentials;
        },
        onDone: { target: "signedIn", actions: { type: "enterConsole", params: ({ event }) => event.output } },
        onError: {
          target: "signedOut",
          actions: [
            assign({ error: ({ event }) => messageOf(event.error) }),
            { type: "reportError", params: ({ event }) => ({ message: messageOf(event.error) }) },
          ],
        },
      },
    },
    signedIn: {
      tags: ["signedIn"],
      after: { checkInterval: "checking" },
      on: {
        "session.check": "checking",
        "session.logout": "signingOut",
        "session.cleared": "signedOut",
      },
    },
    checking: {
      tags: ["signedIn"],
      invoke: {
        src: "checkSession",
        onDone: [
          { guard: ({ event }) => event.output === "ended", target: "signingOut" },
          { target: "signedIn", actions: "refresh" },
        ],
        // The platform being unreachable is not a reason to throw the operator out.
        onError: "signedIn",
      },
      on: { "session.logout": "signingOut", "session.cleared": "signedOut" },
    },
    signingOut: {
      tags: ["busy"],
      invoke: {
        src: "signOut",
        onDone: { target: "signedOut", actions: "leaveConsole" },
        // The cookie may already be gone; leaving is still right.
        onError: { target: "signedOut", actions: "leaveConsole" },
      },
    },
  },
});
