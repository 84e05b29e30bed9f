/** A key sequence shown as keycaps: `g h` → <kbd>g</kbd> <kbd>h</kbd>. */
import { describeKeys } from "../../commands/keymap";

export function Keys({ sequence }: { sequence: string }) {
  const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <span className="keys">
      {describeKeys(sequence, isMac)
        .split(" ")
        .map((part, index) => (
          <kbd key={index}>{part}</kbd>
        ))}
    </span>
  );
}
