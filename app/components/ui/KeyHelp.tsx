/**
 * The `?` key map, read from the registry: the showing screen's keys, then the keys that work on
 * every screen, then the keys every dialog shares.
 */
import type { Command, ScreenCommand } from "../../commands/types";
import { Keys } from "./Keys";
import { Overlay } from "./Overlay";

const EVERYWHERE: ReadonlyArray<readonly [string, string]> = [
  ["Esc", "close a dialog, panel or palette"],
  ["Tab", "move between controls"],
  ["Backspace", "in an empty palette: back one step"],
];

type KeyHelpProps = {
  commands: readonly Command[];
  screenCommands: readonly ScreenCommand[];
  /** The showing screen's label, heading its keys. */
  screen?: string;
  onClose: () => void;
};

export function KeyHelp({ commands, screenCommands, screen, onClose }: KeyHelpProps) {
  const keyed = commands.filter((command) => command.keys?.length);
  return (
    <Overlay label="Keys" onClose={onClose} className="help">
      <h2>Keys</h2>
      {screenCommands.length > 0 && <KeyTable caption={screen ?? "This screen"} commands={screenCommands} />}
      <KeyTable caption="Everywhere" commands={keyed}>
        {EVERYWHERE.map(([key, does]) => (
          <tr key={key}>
            <td>
              <kbd>{key}</kbd>
            </td>
            <td>{does}</td>
          </tr>
        ))}
      </KeyTable>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </Overlay>
  );
}

function KeyTable({ caption, commands, children }: { caption: string; commands: readonly (Command | ScreenCommand)[]; children?: React.ReactNode }) {
  return (
    <table className="help-table">
      <caption>{caption}</caption>
      <tbody>
        {commands.map((command) => (
          <tr key={command.id}>
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
