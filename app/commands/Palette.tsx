/**
 * The command palette (cmdk). Filtering and ranking are ours (`shouldFilter={false}`), and vim
 * bindings are off so Ctrl+K is never eaten. Typing `>` first restricts to commands.
 */
import { Command as Cmdk } from "cmdk";
import { useMemo, useState } from "react";
import { Keys } from "../components/Keys";
import { Overlay } from "../components/Overlay";
import { rank } from "./rank";
import type { Command } from "./types";

type PaletteProps = {
  commands: readonly Command[];
  onRun: (command: Command) => void;
  onClose: () => void;
};

export function Palette({ commands, onRun, onClose }: PaletteProps) {
  const [query, setQuery] = useState("");
  const term = query.startsWith(">") ? query.slice(1) : query;
  const results = useMemo(() => rank(commands, term), [commands, term]);

  return (
    <Overlay label="Command palette" onClose={onClose} className="palette">
      <Cmdk label="Command palette" shouldFilter={false} vimBindings={false} loop>
        <Cmdk.Input
          autoFocus
          value={query}
          onValueChange={setQuery}
          placeholder="Type a command…"
          aria-label="Command"
        />
        <Cmdk.List>
          <Cmdk.Empty>No results</Cmdk.Empty>
          {results.map((command) => (
            <Cmdk.Item key={command.id} value={command.id} data-command={command.id} onSelect={() => onRun(command)}>
              <span className="palette-title">{command.title}</span>
              <span className="palette-group">{command.group}</span>
              {command.keys?.map((sequence) => <Keys key={sequence} sequence={sequence} />)}
            </Cmdk.Item>
          ))}
        </Cmdk.List>
      </Cmdk>
    </Overlay>
  );
}
