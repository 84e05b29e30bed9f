/**
 * Key sequences (`"g h"`, `"?"`, `"mod+k"`) matched against keyboard events. Pure: the hook that
 * listens lives in use-key-dispatcher.ts.
 */
import { installKeyBuffer, shouldBuffer } from "../lib/key-buffer";

/** How long `g` waits for its letter. */
export const SEQUENCE_TIMEOUT_MS = 1200;

/** A keydown as a token: the printed character, or `mod+k` style for chords; null for bare modifiers. */
export function keyToken(
  event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">,
): string | null {
  if (["Shift", "Control", "Meta", "Alt", "CapsLock"].includes(event.key)) return null;
  const key = event.key.length === 1 ? event.key : event.key.toLowerCase();
  if (event.ctrlKey || event.metaKey) return `mod+${event.shiftKey ? "shift+" : ""}${key.toLowerCase()}`;
  if (event.altKey) return `alt+${key}`;
  // A printed character already says Shift (`?`, `R`); a named key needs it spelled out.
  if (event.shiftKey && event.key.length > 1) return `shift+${key}`;
  return key;
}

const CHORD_PART: Record<string, [pc: string, mac: string]> = { mod: ["Ctrl", "⌘"], shift: ["Shift", "⇧"], alt: ["Alt", "⌥"] };

const NAMED_KEY: Record<string, string> = {
  arrowdown: "↓",
  arrowup: "↑",
  enter: "Enter",
  escape: "Esc",
  home: "Home",
  end: "End",
  pagedown: "PgDn",
  pageup: "PgUp",
};

/** Renders a sequence for people: `mod+k` → `Ctrl+K` (`⌘K` on a Mac), `g h` → `g h`, `shift+arrowdown` → `Shift+↓`. */
export function describeKeys(sequence: string, isMac = false): string {
  return sequence
    .split(" ")
    .map((token) => {
      const parts = token.split("+");
      if (parts.length === 1) return NAMED_KEY[token] ?? token;
      const last = parts.pop()!;
      const key = NAMED_KEY[last] ?? last.toUpperCase();
      const modifiers = parts.map((part) => CHORD_PART[part]?.[isMac ? 1 : 0] ?? part);
      return isMac ? [...modifiers, key].join("") : [...modifiers, key].join("+");
    })
    .join(" ");
}

export type MatchResult<T> = { kind: "run"; target: T } | { kind: "pending"; prefix: string } | { kind: "none" };

/**
 * Feeds tokens one at a time and says when a whole sequence matched. A token that continues no
 * sequence restarts matching from that token alone, so `x g h` still runs `g h`.
 */
export function createSequenceMatcher<T>(initial: ReadonlyArray<readonly [string, T]>) {
  let table = new Map<string, T>();
  let prefixes = new Set<string>();
  const bind = (bindings: ReadonlyArray<readonly [string, T]>) => {
    table = new Map(bindings.map(([sequence, target]) => [sequence, target]));
    prefixes = new Set();
    for (const [sequence] of bindings) {
      const parts = sequence.split(" ");
      for (let i = 1; i < parts.length; i++) prefixes.add(parts.slice(0, i).join(" "));
    }
  };
  bind(initial);
  let buffer = "";
  let lastAt = 0;

  const attempt = (sequence: string): MatchResult<T> | null => {
    const target = table.get(sequence);
    if (target !== undefined) {
      buffer = "";
      return { kind: "run", target };
    }
    if (prefixes.has(sequence)) {
      buffer = sequence;
      return { kind: "pending", prefix: sequence };
    }
    return null;
  };

  return {
    feed(token: string, now: number): MatchResult<T> {
      const continued = buffer && now - lastAt <= SEQUENCE_TIMEOUT_MS ? `${buffer} ${token}` : null;
      lastAt = now;
      buffer = "";
      return (continued && attempt(continued)) || attempt(token) || { kind: "none" };
    },
    reset(): void {
      buffer = "";
    },
    /** New bindings (another screen showed); a typed `g` still waits for its letter. */
    rebind(bindings: ReadonlyArray<readonly [string, T]>): void {
      bind(bindings);
      if (!prefixes.has(buffer)) buffer = "";
    },
    get pending(): string {
      return buffer;
    },
  };
}

/** The registry's chords, which work even in a text field: the head script holds them too (commands.test.ts keeps the two equal). */
export const CHORDS = ["mod+k", "mod+shift+l"] as const;

/** The head script of every page (app/root.tsx): app/lib/key-buffer.ts's listener, tokens spelled by keyToken. */
export const keyBufferScript = (): string =>
  `(${installKeyBuffer})(window,${keyToken},${shouldBuffer},${JSON.stringify(CHORDS)});`;
