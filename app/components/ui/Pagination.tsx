/** Page buttons (at most 7, docs/product.md §9); `[` and `]` are the list commands that step pages. */
import { pageButtons } from "./table-model";

type PaginationProps = {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
};

export function Pagination({ page, pageCount, onPage }: PaginationProps) {
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
