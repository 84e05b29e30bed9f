/**
 * The `?` key map, read from the registry, in three columns: the `g` keys that go to a screen, the
 * showing screen's keys, and the keys that work everywhere (with the keys every dialog shares).
 * Close comes first, so the focus the overlay gives it leaves the map opened at its top.
 */
import type { OfferedCommand, ScreenCommand } from "../../commands/types";
import { Keys } from "./Keys";
import { Overlay } from "./Overlay";

const EVERYWHERE: ReadonlyArray<readonly [string, string]> = [
  ["Esc", "close a dialog, panel or palette"],
  ["Tab", "move between controls"],
  ["Backspace", "in an empty palette: back one step"],
  ["↑ / ↓", "in an empty palette: your last commands"],
];

type KeyHelpProps = {
  /** A command the operator's API cannot serve (`refusal`) shows dimmed, its reason on hover. */
  commands: readonly OfferedCommand[];
  screenCommands: readonly ScreenCommand[];
  /** The showing screen's label, heading its keys. */
  screen?: string;
  onClose: () => void;
};

export function KeyHelp({ commands, screenCommands, screen, onClose }: KeyHelpProps) {
  const keyed = commands.filter((command) => command.keys?.length);
  return (
    <Overlay label="Keys" onClose={onClose} className="help">
      <div className="help-head">
        <h2>Keys</h2>
        <button type="button" onClick={onClose} aria-keyshortcuts="Escape">
          Close <kbd>Esc</kbd>
        </button>
      </div>
      <div className="help-columns">
        <KeyTable caption="Go to" commands={keyed.filter((command) => command.group === "Go to")} />
        {screenCommands.length > 0 && <KeyTable caption={`This screen: ${screen ?? "keys"}`} commands={screenCommands} />}
        <KeyTable caption="Everywhere" commands={keyed.filter((command) => command.group !== "Go to")}>
          {EVERYWHERE.map(([key, does]) => (
            <tr key={key}>
              <td>
                <kbd>{key}</kbd>
              </td>
              <td>{does}</td>
            </tr>
          ))}
        </KeyTable>
      </div>
    </Overlay>
  );
}

function KeyTable({ caption, commands, children }: { caption: string; commands: readonly (OfferedCommand | ScreenCommand)[]; children?: React.ReactNode }) {
  return (
    <table className="help-table">
      <caption>{caption}</caption>
      <tbody>
        {commands.map((command) => (
          <tr key={command.id} {...("refusal" in command && command.refusal && { className: "dim", title: command.refusal })}>
            <td>
              {command.keys!.map((sequence) => (
                <Keys key={sequence} sequence={sequence} />
              ))}
            </td>
            <td>{command.title}</td>
          </tr>
        ))}
        {children}
      </tbody>
    </table>
  );
}
