/** Page buttons (at most 7, spec §9); `[` and `]` step pages while no text field has focus. */
import { useEffect, useRef } from "react";
import { pageButtons } from "./table-model";

type PaginationProps = {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  /** Whether `[` / `]` drive this pagination. */
  keyboard?: boolean;
};

export function Pagination({ page, pageCount, onPage, keyboard }: PaginationProps) {
  const latest = useRef({ page, pageCount, onPage });
  latest.current = { page, pageCount, onPage };
  useEffect(() => {
    if (!keyboard) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.defaultPrevented || target?.closest("input, textarea, select, [role=dialog]")) return;
      const { page: current, pageCount: count, onPage: go } = latest.current;
      if (event.key === "[" && current > 1) go(current - 1);
      else if (event.key === "]" && current < count) go(current + 1);
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [keyboard]);

  if (pageCount <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pagination">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label="Previous page">
        ‹
      </button>
      {pageButtons(page, pageCount).map((number, index) =>
        number === null ? (
          <span key={`gap-${index}`} className="dim">
            …
          </span>
        ) : (
          <button
            key={number}
            type="button"
            aria-current={number === page ? "page" : undefined}
            onClick={() => onPage(number)}
          >
            {number}
          </button>
        ),
      )}
      <button type="button" disabled={page >= pageCount} onClick={() => onPage(page + 1)} aria-label="Next page">
        ›
      </button>
    </nav>
  );
}
