/**
 * A modal layer: labelled dialog, Esc and a click outside close it, Tab stays inside, and focus
 * goes back where it was when it closes. Opening, the dialog itself takes focus unless a field of it
 * already has (autoFocus): so its own keys answer at once and no Enter presses a button it did not mean.
 * It takes focus before its first frame is painted: a layer opened in a transition (key help) ran
 * its effects after painting, and on a busy machine an Esc typed once it showed went to the page.
 */
import { useRef, type ReactNode } from "react";
import { useBrowserLayoutEffect } from "./use-browser-layout-effect";

type OverlayProps = {
  /** Accessible name of the dialog. */
  label: string;
  onClose: () => void;
  className?: string;
  children: ReactNode;
};

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

export function Overlay({ label, onClose, className, children }: OverlayProps) {
  const dialog = useRef<HTMLDivElement>(null);
  useBrowserLayoutEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    if (!dialog.current?.contains(document.activeElement)) dialog.current?.focus();
    return () => previous?.focus?.();
  }, []);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    } else if (event.key === "Tab" && dialog.current) {
      const focusable = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  };

  return (
    <div className="overlay" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        tabIndex={-1}
        className={className}
        onKeyDown={onKeyDown}
      >
        {children}
      </div>
    </div>
  );
}
