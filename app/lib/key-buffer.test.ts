import { describe, expect, it, vi } from "vitest";
import { keyBufferScript, keyToken } from "../commands/keymap";
import { HOLD, installKeyBuffer, nextKey, shouldBuffer, type BufferedInput, type BufferedKey, type KeyBuffer } from "./key-buffer";

const CHORDS = ["mod+k"];
const AT = "/users";
const buffer = (holds: string[], queued = 0): KeyBuffer => ({
  holds,
  queue: Array.from({ length: queued }, () => ({ key: "g", ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, field: false })),
});

describe("shouldBuffer", () => {
  it("holds a key outside a field, and the console's chords anywhere, while the page hydrates", () => {
    const hydrating = buffer([HOLD.hydrating]);
    expect(shouldBuffer(hydrating, "g", false, CHORDS, AT)).toBe(true);
    expect(shouldBuffer(hydrating, "mod+k", true, CHORDS, AT)).toBe(true);
    // A field types its own keys natively before hydration.
    expect(shouldBuffer(hydrating, "a", true, CHORDS, AT)).toBe(false);
  });

  it("never holds Tab, a modifier alone, or the browser's chords", () => {
    const held = buffer([HOLD.palette], 1);
    for (const token of ["tab", "shift+tab", null, "mod+r", "alt+arrowleft"]) expect(shouldBuffer(held, token, false, CHORDS, AT)).toBe(false);
  });

  it("holds every key, a field's too, while the app holds them", () => {
    expect(shouldBuffer(buffer([HOLD.palette]), "d", true, CHORDS, AT)).toBe(true);
    expect(shouldBuffer(buffer([HOLD.pickSearch]), "enter", true, CHORDS, AT)).toBe(true);
  });

  it("keeps order: behind a queued key every key waits, with no hold left", () => {
    expect(shouldBuffer(buffer([], 1), "e", true, CHORDS, AT)).toBe(true);
    expect(shouldBuffer(buffer([]), "e", false, CHORDS, AT)).toBe(false);
  });
});

describe("a navigation rendering", () => {
  it("holds every key from the address's change until the shell rendered its screen, and replays them then", () => {
    const switching: KeyBuffer = { ...buffer([]), screen: "/" };
    expect(shouldBuffer(switching, "t", false, CHORDS, "/second-factor")).toBe(true);
    expect(shouldBuffer(switching, "a", true, CHORDS, "/second-factor")).toBe(true);
    switching.queue.push({ key: "t", ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, field: false });
    expect(nextKey(switching, "/second-factor")).toBeUndefined();
    switching.screen = "/second-factor";
    expect(nextKey(switching, "/second-factor")).toMatchObject({ key: "t" });
  });

  it("holds nothing outside the shell, nor once the screen is rendered", () => {
    expect(shouldBuffer(buffer([]), "a", true, CHORDS, "/login")).toBe(false);
    expect(shouldBuffer({ ...buffer([]), screen: AT }, "j", false, CHORDS, AT)).toBe(false);
  });
});

describe("nextKey", () => {
  it("gives the queue in order once no hold is left", () => {
    const keys = buffer([HOLD.palette]);
    keys.queue = ["d", "e"].map((key) => ({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, field: true }));
    expect(nextKey(keys, AT)).toBeUndefined();
    keys.holds = [];
    expect(nextKey(keys, AT)).toMatchObject({ key: "d" });
    expect(nextKey(keys, AT)).toMatchObject({ key: "e" });
    expect(nextKey(keys, AT)).toBeUndefined();
  });
});

/** The keys of a queue, its clicks left out. */
const keysIn = (queue: readonly BufferedInput[]) => queue.filter((input): input is BufferedKey => !("click" in input));

/** A window with the head script's listeners, and key events as the browser would send them. */
function fakeWindow() {
  const listeners = new Map<string, (event: KeyboardEvent) => void>();
  const win = {
    location: { pathname: AT },
    addEventListener: (type: string, handler: (event: KeyboardEvent) => void) => listeners.set(type, handler),
  } as unknown as Window;
  /** `control`: the button, link or summary the target is inside. */
  type Control = { tagName: string; form?: object | null; type?: string };
  const send = (type: string, key: string, { tagName = "BODY", ctrlKey = false, isTrusted = true, control = null as Control | null } = {}) => {
    const event = {
      type,
      key,
      ctrlKey,
      metaKey: false,
      altKey: false,
      shiftKey: false,
      isTrusted,
      isComposing: false,
      target: { tagName, isContentEditable: false, closest: () => control },
      preventDefault: vi.fn(),
      stopImmediatePropagation: vi.fn(),
    };
    listeners.get(type)!(event as unknown as KeyboardEvent);
    return event;
  };
  const press = (key: string, options?: Parameters<typeof send>[2]) => send("keydown", key, options);
  const release = (key: string, options?: Parameters<typeof send>[2]) => send("keyup", key, options);
  return { win, press, release, send };
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
    expect(keysIn(win.betdeskKeys!.queue).map(({ key, ctrlKey, field }) => [key, ctrlKey, field])).toEqual([
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

  it("keeps every event React would hydrate at once for from it until the page hydrated, blocking no native behaviour", () => {
    const { win, press, release, send } = fakeWindow();
    installKeyBuffer(win, keyToken, shouldBuffer, CHORDS);
    // A modifier alone, a field's typing, a click are not held, yet React must not see them (error 345).
    for (const event of [press("Control"), press("a", { tagName: "INPUT" }), press("Tab"), release("g"), send("click", ""), send("input", "", { tagName: "INPUT" })]) {
      expect(event.stopImmediatePropagation).toHaveBeenCalled();
      expect(event.preventDefault).not.toHaveBeenCalled();
    }
    expect(win.betdeskKeys!.queue).toEqual([]);
    // Hydrated: React sees what is not held.
    win.betdeskKeys!.holds = [];
    for (const event of [press("Control"), press("a", { tagName: "INPUT" }), release("g"), send("click", "")]) expect(event.stopImmediatePropagation).not.toHaveBeenCalled();
  });

  it("holds Enter and Space on a script's button until hydrated, and leaves a form's button and a link to the browser", () => {
    const { win, press } = fakeWindow();
    installKeyBuffer(win, keyToken, shouldBuffer, CHORDS);
    const toggle = { tagName: "BUTTON", form: null, type: "button" };
    // A button outside a form does nothing natively, whatever its type; the replay clicks it.
    expect(press("Enter", { tagName: "BUTTON", control: toggle }).preventDefault).toHaveBeenCalled();
    expect(press(" ", { tagName: "BUTTON", control: { ...toggle, type: "submit" } }).preventDefault).toHaveBeenCalled();
    expect(keysIn(win.betdeskKeys!.queue).map(({ key }) => key)).toEqual(["Enter", " "]);
    win.betdeskKeys!.queue = [];
    // A form's submit button, a link: the browser answers them as plain HTML.
    for (const control of [{ tagName: "BUTTON", form: {}, type: "submit" }, { tagName: "A" }]) {
      const enter = press("Enter", { tagName: control.tagName, control });
      expect(enter.preventDefault).not.toHaveBeenCalled();
      expect(enter.stopImmediatePropagation).toHaveBeenCalled();
    }
    expect(win.betdeskKeys!.queue).toEqual([]);
  });

  it("holds a click on a script's button until hydrated, in order with the keys, and leaves the browser's own clicks to it", () => {
    const { win, press, send } = fakeWindow();
    installKeyBuffer(win, keyToken, shouldBuffer, CHORDS);
    const toggle = { tagName: "BUTTON", form: null, type: "submit" };
    press("g");
    const click = send("click", "", { control: toggle });
    press("u");
    expect(click.preventDefault).toHaveBeenCalled();
    expect(click.stopImmediatePropagation).toHaveBeenCalled();
    expect(win.betdeskKeys!.queue).toEqual([expect.objectContaining({ key: "g" }), { click: toggle }, expect.objectContaining({ key: "u" })]);
    win.betdeskKeys!.queue = [];
    // A link, a form's submit button, a label or the page itself: the browser's default stands, nothing is held.
    for (const control of [{ tagName: "A" }, { tagName: "BUTTON", form: {}, type: "submit" }, { tagName: "LABEL" }, null]) {
      const other = send("click", "", { control });
      expect(other.preventDefault).not.toHaveBeenCalled();
      expect(other.stopImmediatePropagation).toHaveBeenCalled();
    }
    expect(win.betdeskKeys!.queue).toEqual([]);
    // Hydrated: React answers the click itself.
    win.betdeskKeys!.holds = [];
    const live = send("click", "", { control: toggle });
    expect(live.preventDefault).not.toHaveBeenCalled();
    expect(live.stopImmediatePropagation).not.toHaveBeenCalled();
    expect(win.betdeskKeys!.queue).toEqual([]);
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
