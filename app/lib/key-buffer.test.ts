import { describe, expect, it, vi } from "vitest";
import { keyBufferScript, keyToken } from "../commands/keymap";
import { HOLD, installKeyBuffer, nextKey, shouldBuffer, type KeyBuffer } from "./key-buffer";

const CHORDS = ["mod+k"];
const buffer = (holds: string[], queued = 0): KeyBuffer => ({
  holds,
  queue: Array.from({ length: queued }, () => ({ key: "g", ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, field: false })),
});

describe("shouldBuffer", () => {
  it("holds a key outside a field, and the console's chords anywhere, while the page hydrates", () => {
    const hydrating = buffer([HOLD.hydrating]);
    expect(shouldBuffer(hydrating, "g", false, CHORDS)).toBe(true);
    expect(shouldBuffer(hydrating, "mod+k", true, CHORDS)).toBe(true);
    // A field types its own keys natively before hydration.
    expect(shouldBuffer(hydrating, "a", true, CHORDS)).toBe(false);
  });

  it("never holds Tab, a modifier alone, or the browser's chords", () => {
    const held = buffer([HOLD.palette], 1);
    for (const token of ["tab", "shift+tab", null, "mod+r", "alt+arrowleft"]) expect(shouldBuffer(held, token, false, CHORDS)).toBe(false);
  });

  it("holds every key, a field's too, while the app holds them", () => {
    expect(shouldBuffer(buffer([HOLD.palette]), "d", true, CHORDS)).toBe(true);
    expect(shouldBuffer(buffer([HOLD.pickSearch]), "enter", true, CHORDS)).toBe(true);
  });

  it("keeps order: behind a queued key every key waits, with no hold left", () => {
    expect(shouldBuffer(buffer([], 1), "e", true, CHORDS)).toBe(true);
    expect(shouldBuffer(buffer([]), "e", false, CHORDS)).toBe(false);
  });
});

describe("nextKey", () => {
  it("gives the queue in order once no hold is left", () => {
    const keys = buffer([HOLD.palette]);
    keys.queue = ["d", "e"].map((key) => ({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, field: true }));
    expect(nextKey(keys)).toBeUndefined();
    keys.holds = [];
    expect(nextKey(keys)?.key).toBe("d");
    expect(nextKey(keys)?.key).toBe("e");
    expect(nextKey(keys)).toBeUndefined();
  });
});

/** A window with one keydown listener, and keydowns as the browser would send them. */
function fakeWindow() {
  let listener: ((event: KeyboardEvent) => void) | undefined;
  const win = { addEventListener: (_type: string, handler: (event: KeyboardEvent) => void) => (listener = handler) } as unknown as Window;
  const press = (key: string, { tagName = "BODY", ctrlKey = false, isTrusted = true } = {}) => {
    const event = {
      key,
      ctrlKey,
      metaKey: false,
      altKey: false,
      shiftKey: false,
      isTrusted,
      isComposing: false,
      target: { tagName, isContentEditable: false, closest: () => null },
      preventDefault: vi.fn(),
      stopImmediatePropagation: vi.fn(),
    };
    listener!(event as unknown as KeyboardEvent);
    return event;
  };
  return { win, press };
}

describe("the head script", () => {
  it("records the keys typed before hydration, in order, and keeps them from the page", () => {
    const { win, press } = fakeWindow();
    installKeyBuffer(win, keyToken, shouldBuffer, CHORDS);
    const g = press("g");
    press("u");
    press("k", { ctrlKey: true, tagName: "INPUT" });
    const typed = press("x", { tagName: "INPUT" });
    const replayed = press("d", { isTrusted: false });
    expect(win.betdeskKeys!.queue.map(({ key, ctrlKey, field }) => [key, ctrlKey, field])).toEqual([
      ["g", false, false],
      ["u", false, false],
      ["k", true, true],
      // Behind held keys a field's key waits too, so the order holds.
      ["x", false, true],
    ]);
    expect(g.preventDefault).toHaveBeenCalled();
    expect(g.stopImmediatePropagation).toHaveBeenCalled();
    expect(typed.preventDefault).toHaveBeenCalled();
    expect(replayed.preventDefault).not.toHaveBeenCalled();
  });

  it("lets a field type its own keys when nothing is queued", () => {
    const { win, press } = fakeWindow();
    installKeyBuffer(win, keyToken, shouldBuffer, CHORDS);
    expect(press("a", { tagName: "INPUT" }).preventDefault).not.toHaveBeenCalled();
    expect(win.betdeskKeys!.queue).toEqual([]);
  });

  it("runs from its source alone, as the page sends it", () => {
    const { win, press } = fakeWindow();
    new Function("window", keyBufferScript())(win);
    press("k", { ctrlKey: true });
    expect(win.betdeskKeys).toEqual({ holds: [HOLD.hydrating], queue: [expect.objectContaining({ key: "k", ctrlKey: true })] });
  });
});
