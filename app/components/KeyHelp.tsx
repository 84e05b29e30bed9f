/** The `?` key map: the keys that work everywhere, then every keyed command of the registry. */
import type { Command } from "../commands/types";
import { Keys } from "./Keys";
import { Overlay } from "./Overlay";

const EVERYWHERE: ReadonlyArray<readonly [string, string]> = [
  ["Esc", "close a dialog, panel or palette"],
  ["Tab", "move between controls"],
  ["Backspace", "in an empty palette: back one step"],
];

export function KeyHelp({ commands, onClose }: { commands: readonly Command[]; onClose: () => void }) {
  const keyed = commands.filter((command) => command.keys?.length);
  return (
    <Overlay label="Keys" onClose={onClose} className="help">
      <h2>Keys</h2>
      <table className="help-table">
        <tbody>
          {keyed.map((command) => (
            <tr key={command.id}>
              <td>
                {command.keys!.map((sequence) => (
                  <Keys key={sequence} sequence={sequence} />
                ))}
              </td>
              <td>{command.title}</td>
            </tr>
          ))}
          {EVERYWHERE.map(([key, does]) => (
            <tr key={key}>
              <td>
                <kbd>{key}</kbd>
              </td>
              <td>{does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </Overlay>
  );
}
