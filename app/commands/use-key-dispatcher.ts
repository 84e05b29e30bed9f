/**
 * The one key dispatcher: every key the console answers is a registry command, global or of the
 * screen showing, and this is the one place that decides whether the operator is typing. Keys typed
 * before the page could answer them reach it later, replayed in order (app/lib/key-buffer.ts).
 */
import { useEffect, useRef, useState } from "react";
import { notifyError } from "../lib/feedback";
import { refuseUnanswered } from "../lib/key-buffer";
import { createSequenceMatcher, keyToken } from "./keymap";
import type { CommandContext, OfferedCommand, ScreenCommand, ScreenHandler } from "./types";

/** Keys pressed in a text field or inside a dialog belong to it; only chords (Ctrl+K) get through. */
const isTyping = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || !!target.closest("[role=dialog]"));

/** Enter and Space on a focused button or link press it, as the browser does; the screen's keys leave them alone. */
const pressesControl = (event: KeyboardEvent): boolean =>
  (event.key === "Enter" || event.key === " ") && event.target instanceof HTMLElement && !!event.target.closest("button, a[href], summary");

type Binding = { kind: "global"; command: OfferedCommand } | { kind: "screen"; command: ScreenCommand };

type DispatcherOptions = {
  commands: readonly OfferedCommand[];
  screenCommands: readonly ScreenCommand[];
  /** The showing screen's handler for one of its commands, if it has one now. */
  handlerOf: (id: string) => ScreenHandler | undefined;
  context: CommandContext;
  /** A shell layer (palette, help, bulk) is open: only chords work. */
  paused: boolean;
  /** Called on the first key of the page, so the layers' code can start loading. */
  onFirstKey: () => void;
};

/** Runs the command whose sequence is typed. Returns the pending prefix (`g`) for the status line. */
export function useKeyDispatcher({ commands, screenCommands, handlerOf, context, paused, onFirstKey }: DispatcherOptions): string {
  const [pending, setPending] = useState("");
  const latest = useRef({ context, paused, handlerOf, onFirstKey });
  latest.current = { context, paused, handlerOf, onFirstKey };

  useEffect(() => {
    const warm = () => latest.current.onFirstKey();
    window.addEventListener("keydown", warm, { once: true, capture: true });
    return () => window.removeEventListener("keydown", warm, { capture: true });
  }, []);

  // One matcher for the page's life: a screen change rebinds it without losing a typed `g`.
  const [matcher] = useState(() => createSequenceMatcher<Binding>([]));
  useEffect(() => {
    matcher.rebind([
      ...commands.flatMap((command) => (command.keys ?? []).map((sequence) => [sequence, { kind: "global", command }] as const)),
      ...screenCommands.flatMap((command) => command.keys.map((sequence) => [sequence, { kind: "screen", command }] as const)),
    ]);
  }, [matcher, commands, screenCommands]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const token = keyToken(event);
      if (!token) return;
      const chord = token.startsWith("mod+");
      if (!chord && (latest.current.paused || isTyping(event.target) || pressesControl(event))) return;
      const result = matcher.feed(token, event.timeStamp);
      setPending(result.kind === "pending" ? result.prefix : "");
      if (result.kind === "none") {
        // Typed by the operator and answered by nothing: said, not dropped (a replayed key is the buffer's to refuse).
        if (event.isTrusted) refuseUnanswered(event);
        return;
      }
      if (result.kind === "pending") {
        event.preventDefault();
        return;
      }
      const binding = result.target;
      if (binding.kind === "global") {
        event.preventDefault();
        // A command the operator's API cannot serve says why instead of running.
        if (binding.command.refusal) notifyError(binding.command.refusal);
        else void binding.command.run(latest.current.context, {});
        return;
      }
      const handler = latest.current.handlerOf(binding.command.id);
      if (handler && handler() !== false) event.preventDefault();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [matcher]);

  return pending;
}
