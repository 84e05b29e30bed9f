/**
 * The palette's flow, Raycast style: choose a command, answer its steps one at a time (Backspace
 * on an empty answer goes back a step), then it runs. A failed run keeps the answers and shows
 * why, so the operator can correct the last step and submit again. Pure: running is the
 * `runCommand` actor supplied by the palette.
 *
 * Each choice of a command takes one `requestId`, which every attempt of that run sends: after an
 * unknown outcome (a money call whose answer never arrived) `y` sends the same key again, so an
 * API honouring it moves the money once, and a changed amount is refused (docs/protocol.md,
 * Idempotency). The platform keeps only what moved, so a refused attempt leaves the key free.
 *
 * `palette.reopen` (history, `.` repeat; docs/ux.md "Palette") opens a command at its last step,
 * the confirmation, with the earlier answers filled in; Backspace still walks back through them.
 */
import { assign, fromPromise, setup } from "xstate";
import { messageOf } from "./error-message";

/** One argument a command asks for. `check` answers a problem, or null when the value is fine. */
export type Step =
  | {
      kind: "text";
      name: string;
      label: string;
      secret?: boolean;
      optional?: boolean;
      check?: (value: string, answers: Answers) => string | null;
    }
  | PickStep
  /** Pasted text, or a chosen file's bytes in base64 (`<name>.encoding` says which: `text` or `base64`). */
  | { kind: "file"; name: string; label: string }
  | { kind: "confirm"; name: string; label: (answers: Answers) => string };

/**
 * Choose one record of a pick source: `source` names it (a desk declares it beside its commands,
 * the palette shows it). Any further field names an earlier step whose answer the source reads:
 * Settle market…'s `event: "event"` lists the markets of the event its `event` step chose.
 */
export type PickStep = { kind: "pick"; name: string; label: string; source: string; [parameter: string]: string };

/**
 * A step's answer is kept under its name; a pick also keeps what the UI knew of the choice under
 * `name.something` (e.g. `user.label`), and going back past the step forgets all of them.
 */
export type Answers = Record<string, string>;

/** What the machine needs of a command; the registry's commands satisfy it. */
export type SteppedCommand = { id: string; title: string; steps?: readonly Step[] };

export const REQUIRED = "A value is required";

/** The problem with an answer to a step, or null. */
export function problemWith(step: Step, value: string, answers: Answers): string | null {
  if (step.kind === "confirm") return null;
  if (step.kind === "pick" || step.kind === "file") return value ? null : REQUIRED;
  if (!value && !step.optional) return REQUIRED;
  return step.check?.(value, answers) ?? null;
}

type Context = { command: SteppedCommand | null; stepIndex: number; answers: Answers; error: string | null; requestId: string };

const notProvided = new Error("palette machine: runCommand was not provided");

export const paletteMachine = setup({
  types: {
    context: {} as Context,
    events: {} as
      /** `answers` already known (a row's button knows its row) skip their steps. */
      | { type: "palette.choose"; command: SteppedCommand; answers?: Answers }
      /** A command run before, at its last step with these answers (a missing earlier one is asked first). */
      | { type: "palette.reopen"; command: SteppedCommand; answers: Answers }
      | { type: "palette.answer"; value: string; extra?: Answers }
      /** Backspace on an empty answer. */
      | { type: "palette.back" },
  },
  actors: {
    runCommand: fromPromise<void, { command: SteppedCommand; answers: Answers; requestId: string }>(async () => {
      throw notProvided;
    }),
  },
  actions: {
    keepAnswer: assign({
      answers: ({ context, event }) =>
        event.type === "palette.answer"
          ? { ...context.answers, ...event.extra, [currentStep(context)!.name]: event.value }
          : context.answers,
      error: null,
    }),
  },
  guards: {
    hasSteps: ({ event }) =>
      event.type === "palette.choose" && firstOpenStep(event.command, event.answers) < (event.command.steps?.length ?? 0),
    answerHasProblem: ({ context, event }) =>
      event.type === "palette.answer" && problemWith(currentStep(context)!, event.value, context.answers) !== null,
    isLastStep: ({ context }) => context.stepIndex === (context.command?.steps?.length ?? 0) - 1,
    isFirstStep: ({ context }) => context.stepIndex === 0,
    declined: ({ context, event }) =>
      event.type === "palette.answer" && currentStep(context)?.kind === "confirm" && event.value !== "yes",
  },
}).createMachine({
  id: "palette",
  context: () => ({ command: null, stepIndex: 0, answers: {}, error: null, requestId: crypto.randomUUID() }),
  initial: "choosing",
  states: {
    choosing: {
      tags: ["choosing"],
      on: {
        "palette.choose": [
          {
            guard: "hasSteps",
            target: "asking",
            actions: assign({
              command: ({ event }) => event.command,
              stepIndex: ({ event }) => firstOpenStep(event.command, event.answers),
              answers: ({ event }) => event.answers ?? {},
              error: null,
              requestId: () => crypto.randomUUID(),
            }),
          },
          {
            target: "running",
            actions: assign({
              command: ({ event }) => event.command,
              answers: ({ event }) => event.answers ?? {},
              error: null,
              requestId: () => crypto.randomUUID(),
            }),
          },
        ],
        "palette.reopen": {
          target: "asking",
          actions: assign({
            command: ({ event }) => event.command,
            stepIndex: ({ event }) => firstOpenStep(event.command, beforeLastStep(event.command, event.answers)),
            answers: ({ event }) => beforeLastStep(event.command, event.answers),
            error: null,
            requestId: () => crypto.randomUUID(),
          }),
        },
      },
    },
    asking: {
      tags: ["asking"],
      on: {
        "palette.answer": [
          {
            guard: "answerHasProblem",
            actions: assign({
              error: ({ context, event }) => problemWith(currentStep(context)!, event.value, context.answers),
            }),
          },
          // Answering No to a confirmation abandons the command, changing nothing.
          { guard: "declined", target: "choosing", actions: assign({ command: null, answers: {}, error: null }) },
          { guard: "isLastStep", target: "running", actions: "keepAnswer" },
          { actions: ["keepAnswer", assign({ stepIndex: ({ context }) => context.stepIndex + 1 })] },
        ],
        "palette.back": [
          { guard: "isFirstStep", target: "choosing", actions: assign({ command: null, answers: {}, error: null }) },
          {
            actions: assign({
              stepIndex: ({ context }) => context.stepIndex - 1,
              answers: ({ context }) => withoutStep(context.answers, context.command!.steps![context.stepIndex - 1]!),
              error: null,
            }),
          },
        ],
      },
    },
    running: {
      tags: ["busy"],
      invoke: {
        src: "runCommand",
        input: ({ context }) => ({ command: context.command!, answers: context.answers, requestId: context.requestId }),
        onDone: "done",
        onError: [
          {
            guard: ({ context }) => (context.command?.steps?.length ?? 0) > 0,
            target: "asking",
            actions: assign({
              error: ({ event }) => messageOf(event.error),
              answers: ({ context }) => withoutStep(context.answers, currentStep(context)!),
            }),
          },
          { target: "choosing", actions: assign({ error: ({ event }) => messageOf(event.error) }) },
        ],
      },
    },
    done: { type: "final" },
  },
});

/** The first step whose answer is not known yet. */
function firstOpenStep(command: SteppedCommand, answers: Answers = {}): number {
  const steps = command.steps ?? [];
  const index = steps.findIndex((step) => !(step.name in answers));
  return index < 0 ? steps.length : index;
}

/** The answers without the last step's, so a re-opened command asks that step (its confirmation) again. */
function beforeLastStep(command: SteppedCommand, answers: Answers): Answers {
  const last = command.steps?.at(-1);
  return last ? withoutStep(answers, last) : answers;
}

export function currentStep(context: Context): Step | undefined {
  return context.command?.steps?.[context.stepIndex];
}

function withoutStep(answers: Answers, step: Step): Answers {
  return Object.fromEntries(
    Object.entries(answers).filter(([key]) => key !== step.name && !key.startsWith(`${step.name}.`)),
  );
}

