import type { Pagination } from '../api/types';

/** Previous and next page of a management list, with where we are. */
export function Pager({ pagination, onPage }: { pagination: Pagination; onPage: (page: number) => void }) {
  if (pagination.totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="button" disabled={pagination.page <= 1} onClick={() => onPage(pagination.page - 1)}>
        Previous
      </button>
      <span>
        Page {pagination.page} of {pagination.totalPages} ({pagination.total} in all)
      </span>
      <button type="button" className="button" disabled={pagination.page >= pagination.totalPages} onClick={() => onPage(pagination.page + 1)}>
        Next
      </button>
    </nav>
  );
}
