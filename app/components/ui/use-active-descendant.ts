/**
 * Keeps a cmdk list's `aria-activedescendant` naming the item that is selected. cmdk 1.1 reads the
 * selected item's id before the items re-render, so once the results change it can go on naming
 * an item that is gone (an axe `aria-valid-attr-value` violation, and a screen reader announcing
 * nothing). React leaves the attribute alone until cmdk's own value changes, which then is right.
 */
import { useCallback, useRef } from "react";

export function useActiveDescendant(): (root: HTMLDivElement | null) => void {
  const observer = useRef<MutationObserver | null>(null);
  return useCallback((root: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!root) return;
    const sync = () => {
      const selected = root.querySelector<HTMLElement>("[cmdk-item][aria-selected='true']");
      for (const owner of root.querySelectorAll("[cmdk-input], [cmdk-list]")) {
        if (selected?.id) owner.setAttribute("aria-activedescendant", selected.id);
        else owner.removeAttribute("aria-activedescendant");
      }
    };
    observer.current = new MutationObserver(sync);
    // Only items coming and going, and the selection moving: setting the attribute does not call it again.
    observer.current.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-selected"] });
  }, []);
}
