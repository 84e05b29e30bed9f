/**
 * The one question before a decision that cannot be taken back (approve, reject, end a session):
 * `y` or Enter on Yes confirms, `n` or Esc cancels.
 */
import type { KeyboardEvent, ReactNode } from "react";
import { Overlay } from "./Overlay";

export function ConfirmDialog({ question, children, onConfirm, onCancel }: { question: string; children: ReactNode; onConfirm: () => void; onCancel: () => void }) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "y") onConfirm();
    else if (event.key === "n") onCancel();
    else return;
    event.preventDefault();
  };
  return (
    <Overlay label={question} onClose={onCancel} className="dialog">
      <div onKeyDown={onKeyDown}>
        <h2>{question}</h2>
        {children}
        <div className="dialog-buttons">
          <button type="button" autoFocus onClick={onConfirm}>
            <kbd>y</kbd> Yes
          </button>
          <button type="button" onClick={onCancel}>
            <kbd>n</kbd> No
          </button>
        </div>
      </div>
    </Overlay>
  );
}
