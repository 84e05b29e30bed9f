/** Toasts with the spec's positions and durations (docs/product.md §8, §9). */
import toast from "react-hot-toast";
import { TOAST } from "./constants";

export function notifySuccess(message: string, options: { short?: boolean } = {}): void {
  toast.success(message, { duration: options.short ? TOAST.shortDurationMs : TOAST.durationMs });
}

/** A short note that is neither success nor failure (`.` with nothing to repeat). */
export function notifyNote(message: string): void {
  toast(message, { duration: TOAST.shortDurationMs });
}

/** A failed call or a rejected form: top-centre, docs/product.md §8. */
export function notifyError(message: string): void {
  toast.error(message, { position: "top-center", duration: TOAST.durationMs });
}

/** Something the operator should know that is neither a success nor a failure (a view's column gone). */
export function notifyNotice(message: string): void {
  toast(message, { icon: "!", duration: TOAST.durationMs });
}

/** What a form action answers: the toast to show, and whether it worked. */
export type Outcome = { ok: boolean; message: string; /** The form field a refusal is about. */ field?: string };

export function announce(outcome: Outcome): void {
  if (outcome.ok) notifySuccess(outcome.message);
  else notifyError(outcome.message);
}
