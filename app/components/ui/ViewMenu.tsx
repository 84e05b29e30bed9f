/**
 * `V` (issue 32, docs/ux.md "Views and columns"): the screen's saved views. In the name field, ↓/↑
 * choose a view; Enter applies it while the field is empty, or saves what shows now under the name
 * typed (replacing a view of that name); Delete with the field empty deletes the chosen view. The
 * "Default view" box, a Tab away, saves it as the one the screen opens with.
 */
import { useState, type FormEvent, type KeyboardEvent } from "react";
import { VIEW_NAME_MAX, type SavedView } from "../../lib/list-view";
import { Overlay } from "./Overlay";

type ViewMenuProps = {
  views: readonly SavedView[];
  onApply: (view: SavedView) => void;
  onSave: (name: string, isDefault: boolean) => Promise<boolean>;
  onDelete: (name: string) => void;
  onClose: () => void;
};

export function ViewMenu({ views, onApply, onSave, onDelete, onClose }: ViewMenuProps) {
  const [name, setName] = useState("");
  const [isDefault, setDefault] = useState(false);
  const [cursor, setCursor] = useState(0);
  const chosen = views[Math.min(cursor, views.length - 1)];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return chosen && onApply(chosen);
    if (await onSave(name.trim(), isDefault)) setName("");
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown") setCursor(Math.min(views.length - 1, cursor + 1));
    else if (event.key === "ArrowUp") setCursor(Math.max(0, cursor - 1));
    else if (event.key === "Delete" && !name && chosen) onDelete(chosen.name);
    else return;
    event.preventDefault();
  };

  return (
    <Overlay label="Views" onClose={onClose} className="dialog views">
      <h2>Views</h2>
      <form onSubmit={submit} className="views-save">
        <input
          // Focused at once, before the overlay's own focus (an effect), which would otherwise end on the dialog itself.
          autoFocus
          role="combobox"
          aria-expanded={views.length > 0}
          aria-label="View name"
          placeholder="name to save, or Enter to apply"
          maxLength={VIEW_NAME_MAX}
          value={name}
          onChange={(event) => setName(event.target.value)}
          onKeyDown={onKeyDown}
          aria-controls="saved-views"
          aria-activedescendant={chosen ? `view-${cursor}` : undefined}
          autoComplete="off"
        />
        <label>
          <input type="checkbox" checked={isDefault} onChange={(event) => setDefault(event.target.checked)} /> Default view
        </label>
      </form>
      {views.length === 0 ? (
        <p className="dim">No views saved for this screen yet.</p>
      ) : (
        <ul role="listbox" id="saved-views" aria-label="Saved views">
          {views.map((view, index) => (
            <li key={view.name} id={`view-${index}`} role="option" aria-selected={index === cursor} onMouseDown={() => onApply(view)}>
              {view.name}
              {view.isDefault && <span className="dim"> · default</span>}
            </li>
          ))}
        </ul>
      )}
      <p className="dim chooser-hint">
        <kbd>↓</kbd>/<kbd>↑</kbd> choose · <kbd>Enter</kbd> apply, or save the name typed · <kbd>Del</kbd> delete · <kbd>Esc</kbd> close
      </p>
    </Overlay>
  );
}
