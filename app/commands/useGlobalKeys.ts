/** Listens for the registry's key sequences anywhere outside a text field. */
import { useEffect, useRef, useState } from "react";
import { createSequenceMatcher, keyToken } from "./keymap";
import type { Command, CommandContext } from "./types";

const isTextField = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/**
 * Runs a command when its sequence is typed. While `paused` (a dialog is open) only chords such
 * as Ctrl+K still work. Returns the pending prefix (`g`) for the status line.
 */
export function useGlobalKeys(commands: readonly Command[], context: CommandContext, paused: boolean): string {
  const [pending, setPending] = useState("");
  const latest = useRef({ context, paused });
  latest.current = { context, paused };

  useEffect(() => {
    const matcher = createSequenceMatcher(
      commands.flatMap((command) => (command.keys ?? []).map((sequence) => [sequence, command] as const)),
    );
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const token = keyToken(event);
      if (!token) return;
      const chord = token.startsWith("mod+");
      if (!chord && (latest.current.paused || isTextField(event.target))) return;
      const result = matcher.feed(token, event.timeStamp);
      setPending(result.kind === "pending" ? result.prefix : "");
      if (result.kind === "none") return;
      event.preventDefault();
      if (result.kind === "run") void result.target.run(latest.current.context, {});
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [commands]);

  return pending;
}
