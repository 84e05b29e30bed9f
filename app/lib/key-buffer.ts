/**
 * No keystroke lost (issue 32; docs/ux.md "Keys typed early"). An inline script in the document's
 * head (app/root.tsx) installs one keydown listener before anything else, so from the page's first
 * byte it can hold the keys the page cannot answer yet in `window.betdeskKeys.queue`: while the
 * page and the shell's layers hydrate, while the palette's code loads, while a pick step's search has not answered its
 * Enter. Each reason to wait is a named hold; once none is left the queue is replayed in order,
 * one key per task so React commits what each key did before the next, to the element focused then,
 * as if typed now. A replayed key that nothing takes is refused on the status line.
 */
import { KEY_HOLD_LIMIT_MS } from "./constants";

/** What the head script records of a keydown; `field`: the focused element took the key itself. */
export type BufferedKey = Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey"> & { field: boolean };
/** A click on a button only a script answers, made before the page hydrated: replayed as that button's click. */
export type BufferedClick = { click: Element };
export type BufferedInput = BufferedKey | BufferedClick;

/**
 * The queue and the reasons to wait, on `window` so the head script and the app share them.
 * `screen`: the path of the screen the shell last rendered (none outside the shell). A router
 * navigation changes the address before React renders the new screen (a transition); a key typed
 * in between belongs to the screen the address names, so it waits until that one is rendered.
 */
export type KeyBuffer = { queue: BufferedInput[]; holds: string[]; screen?: string };

declare global {
  interface Window {
    betdeskKeys?: KeyBuffer;
  }
}

/**
 * The holds: the head script's own (until app/root.tsx hydrates), the shell's layers (their Suspense
 * boundary hydrates last), the palette's code, a pick step's search, a sign-in from its Enter
 * until the shell is up (or the sign-in is refused), so keys typed meanwhile reach the console,
 * not the password field, and an address the palette opens (`@user`) until the shell has rendered
 * it: that may change only the query of the screen showing, which `screen` does not tell, and the
 * Enter typed after it is for the row it found, not for the rows still painted.
 */
export const HOLD = {
  hydrating: "hydrating",
  layers: "layers",
  palette: "palette",
  pickSearch: "pick-search",
  signIn: "sign-in",
  opening: "opening",
} as const;

/**
 * Whether the head script holds a key (`token` as keymap's keyToken spells it) typed at the address
 * `path`. Its source is sent inline, so it uses nothing outside itself (hence the literal "hydrating").
 */
export function shouldBuffer(buffer: KeyBuffer, token: string | null, field: boolean, chords: readonly string[], path: string): boolean {
  // A modifier alone does nothing; Tab moves focus natively and a replay could not.
  if (token === null || token === "tab" || token === "shift+tab") return false;
  // The browser's and a field's own chords (reload, copy) are never held; the console's (Ctrl+K) are.
  const chord = /^(mod|alt)\+/.test(token);
  if (chord && !chords.includes(token)) return false;
  // Behind a held key every key waits, so they apply in the order typed.
  if (buffer.queue.length > 0) return true;
  // The address names a screen not rendered yet: the key is the new screen's, field or not.
  if (buffer.screen !== undefined && buffer.screen !== path) return true;
  if (buffer.holds.length === 0) return false;
  // Before hydration a field takes its own typing natively; a hold the app asked for takes every key.
  return chord || !field || !buffer.holds.includes("hydrating");
}

/**
 * The head script's body, sent as its source (so it too uses nothing outside itself): the first
 * keydown listener of the page, holding what `decide` (shouldBuffer) says from everyone else.
 * Replayed keys are the page's own, untrusted, and pass.
 *
 * Until the page has hydrated, React sees none of the events it would answer by hydrating at once
 * (a key, a click, typing), held or not; the browser's own behaviour is kept (a field types, Tab
 * moves, a link or a form works as plain HTML). React 18 hydrates synchronously on such an event,
 * and while Remix is still decoding the page's data (single fetch suspends the whole document)
 * that render cannot finish: "Root did not complete" (error 345), and the page stops answering.
 * A modifier or a click as the page loaded did that (docs/ux.md "Keys typed early"). What a
 * field typed meanwhile, React learns from retypeFields once it has hydrated; a click on a button
 * only a script answers (no form's submit or reset) waits in the queue for its replay.
 */
export function installKeyBuffer(
  win: Window,
  tokenOf: (event: KeyboardEvent) => string | null,
  decide: typeof shouldBuffer,
  chords: readonly string[],
): void {
  if (win.betdeskKeys) return;
  const buffer: KeyBuffer = { queue: [], holds: ["hydrating"] };
  // Declared here: the page sends this function's source alone.
  const scriptButton = (element: Element) => {
    const button = element as HTMLButtonElement;
    return button.tagName === "BUTTON" && !(button.form && button.type !== "button");
  };
  win.betdeskKeys = buffer;
  win.addEventListener(
    "keydown",
    (event) => {
      if (!event.isTrusted || event.isComposing) return;
      const target = event.target as HTMLElement | null;
      const hydrating = buffer.holds.includes("hydrating");
      // A field types its keys, a focused button or link takes Enter and Space (as the dispatcher's
      // pressesControl). Before hydration a button does something only as a form's submit or reset
      // button: a script's button (the sidebar's toggle) lets the key wait for the replay's click.
      const control = (event.key === "Enter" || event.key === " ") && target ? (target.closest?.("button, a[href], summary") as HTMLButtonElement | null) : null;
      const scriptOnly = hydrating && !!control && scriptButton(control);
      const field = !!target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || (!!control && !scriptOnly));
      if (!decide(buffer, tokenOf(event), field, chords, win.location.pathname)) {
        if (hydrating) event.stopImmediatePropagation();
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
      const { key, ctrlKey, metaKey, altKey, shiftKey } = event;
      buffer.queue.push({ key, ctrlKey, metaKey, altKey, shiftKey, field });
    },
    true,
  );
  // React 18's list of the events it hydrates at once for (a keydown is answered above).
  const shielded = "keypress keyup mousedown mouseup click auxclick dblclick contextmenu pointerdown pointerup pointercancel touchstart touchend touchcancel dragstart dragend drop compositionstart compositionend input textInput change copy cut paste reset submit";
  for (const type of shielded.split(" ")) {
    win.addEventListener(
      type,
      (event) => {
        if (!event.isTrusted || !buffer.holds.includes("hydrating")) return;
        event.stopImmediatePropagation();
        const button = event.type === "click" ? ((event.target as Element | null)?.closest?.("button, a[href], summary, label") ?? null) : null;
        if (button && scriptButton(button)) {
          event.preventDefault();
          buffer.queue.push({ click: button });
        }
      },
      true,
    );
  }
}

/** The next key or click to replay, taken off the queue: none while any hold is left or the address's screen is not rendered yet. */
export function nextKey(buffer: KeyBuffer, path: string): BufferedInput | undefined {
  const rendering = buffer.screen !== undefined && buffer.screen !== path;
  return buffer.holds.length === 0 && !rendering ? buffer.queue.shift() : undefined;
}

/** Keys (or clicks) replayed that nothing took, or held past KEY_HOLD_LIMIT_MS: the status line says so. */
type RefusalListener = (keys: readonly BufferedInput[]) => void;
const refusalListeners = new Set<RefusalListener>();

export function onKeysRefused(listener: RefusalListener): () => void {
  refusalListeners.add(listener);
  return () => refusalListeners.delete(listener);
}

const refuse = (keys: readonly BufferedInput[]) => keys.length > 0 && refusalListeners.forEach((listener) => listener(keys));

/**
 * A key typed now that no command answers, refused on the status line as a replayed one is: a
 * character alone (a letter, digit or sign, Shift allowed), not a movement or editing key, which a
 * focused control may take natively.
 */
export function refuseUnanswered(event: KeyboardEvent): void {
  if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey || event.key === " ") return;
  refuse([{ key: event.key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: event.shiftKey, field: false }]);
}

const limits = new Map<string, ReturnType<typeof setTimeout>>();

/** Holds every key from now (the palette opening) until releaseKeys(reason). */
export function holdKeys(reason: string): void {
  const buffer = window.betdeskKeys;
  if (!buffer || buffer.holds.includes(reason)) return;
  buffer.holds.push(reason);
  limits.set(
    reason,
    setTimeout(() => {
      buffer.holds = buffer.holds.filter((held) => held !== reason);
      refuse(buffer.queue.splice(0));
    }, KEY_HOLD_LIMIT_MS),
  );
}

export function releaseKeys(reason: string): void {
  const buffer = window.betdeskKeys;
  if (!buffer) return;
  clearTimeout(limits.get(reason));
  limits.delete(reason);
  buffer.holds = buffer.holds.filter((held) => held !== reason);
  scheduleReplay();
}

/**
 * The shell rendered the screen at `path` (its effect runs after the screen's own, so the screen's
 * focus and key handlers are in place), or left (undefined, as for the sign-in page): keys held
 * for it are replayed.
 */
export function screenRendered(path: string | undefined): void {
  const buffer = window.betdeskKeys;
  if (!buffer) return;
  buffer.screen = path;
  scheduleReplay();
}

/**
 * The fields typed into before hydration (React saw none of that typing, installKeyBuffer): each
 * field's text is put back to what the server sent and typed again over it, as input React sees,
 * so a controlled field's state holds what the operator typed. Called once the page is hydrated,
 * with the hold released (else the shield would keep that input from React too). Focus ends where it was.
 */
export function retypeFields(doc: Document): void {
  const focused = doc.activeElement;
  for (const field of doc.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea")) {
    if (!typesText(field) || field.value === field.defaultValue) continue;
    const typed = field.value;
    field.value = field.defaultValue;
    field.focus();
    field.select();
    doc.execCommand("insertText", false, typed);
  }
  if (focused instanceof HTMLElement && focused !== doc.activeElement) focused.focus();
}

/** A key that arrived too soon for its handler (Enter before the search answered): it goes first in the queue, held for `reason`. */
export function deferKey(event: KeyboardEvent, reason: string): void {
  const { key, ctrlKey, metaKey, altKey, shiftKey } = event;
  window.betdeskKeys?.queue.unshift({ key, ctrlKey, metaKey, altKey, shiftKey, field: true });
  holdKeys(reason);
}

let scheduled = false;
function scheduleReplay(): void {
  if (scheduled) return;
  scheduled = true;
  setTimeout(() => {
    scheduled = false;
    const key = window.betdeskKeys && nextKey(window.betdeskKeys, window.location.pathname);
    if (!key) return;
    if (!replay(key)) refuse([key]);
    scheduleReplay();
  }, 0);
}

const typesText = (element: Element): boolean =>
  element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && element.type !== "file") || (element as HTMLElement).isContentEditable;

/**
 * A control a key activates natively: Enter a button, a link or a details' summary, Space a button
 * or a summary. A replayed key is untrusted, so the browser does not; replay clicks it instead.
 */
const activatedBy = (element: Element, key: BufferedKey): element is HTMLElement =>
  !key.ctrlKey && !key.metaKey && !key.altKey &&
  ((key.key === "Enter" && element.matches("button, a[href], summary")) || (key.key === " " && element.matches("button, summary")));

/** The inputs whose Enter submits their form only through a submit button when the form has more than one (HTML's implicit submission). */
const BLOCKS_IMPLICIT_SUBMISSION = new Set(["text", "search", "url", "tel", "email", "password", "date", "month", "week", "time", "datetime-local", "number"]);

/**
 * What Enter typed in a form's field does natively, which a replayed (untrusted) Enter does not: the
 * form is submitted by its first submit button, unless that is disabled; a form with none, only when
 * this is its one field of those kinds. False for a field of no form: nothing takes the Enter.
 */
function submitImplicitly(field: HTMLInputElement): boolean {
  const { form } = field;
  if (!form) return false;
  const controls = [...form.elements];
  const submitter = controls.find(
    (control): control is HTMLButtonElement | HTMLInputElement =>
      (control instanceof HTMLButtonElement && control.type === "submit") || (control instanceof HTMLInputElement && (control.type === "submit" || control.type === "image")),
  );
  if (submitter) {
    if (!submitter.disabled) form.requestSubmit(submitter);
  } else if (controls.filter((control) => control instanceof HTMLInputElement && BLOCKS_IMPLICIT_SUBMISSION.has(control.type)).length === 1) {
    form.requestSubmit();
  }
  return true;
}

/**
 * Replays one key at the focused element: a handler that takes it prevents its default; otherwise a
 * control it activates is clicked, Enter in a form's field submits the form, and a text field gets
 * the character (or Backspace) as typing would. A held click clicks its button again, if the page
 * still shows it. False when nothing took it.
 */
function replay(key: BufferedInput): boolean {
  if ("click" in key) {
    if (!key.click.isConnected) return false;
    (key.click as HTMLElement).click();
    return true;
  }
  const target = document.activeElement ?? document.body;
  const { field: _, ...init } = key;
  if (!target.dispatchEvent(new KeyboardEvent("keydown", { ...init, bubbles: true, cancelable: true }))) return true;
  if (activatedBy(target, key)) {
    target.click();
    return true;
  }
  if (!typesText(target) || key.ctrlKey || key.metaKey || key.altKey) return false;
  if (key.key === "Enter" && target instanceof HTMLInputElement) return submitImplicitly(target);
  if (key.key.length === 1) return document.execCommand("insertText", false, key.key);
  return key.key === "Backspace" && document.execCommand("delete");
}
