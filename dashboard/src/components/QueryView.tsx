import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorBanner } from './ErrorBanner';

type QueryViewProps<T> = {
  query: UseQueryResult<T>;
  /** What to say while loading, e.g. "Loading products…". */
  loading?: string;
  /** When the answer holds nothing to show, the empty state instead of `children`. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
};

/** The loading, error and empty states every page shows the same way around its data. */
export function QueryView<T>({ query, loading = 'Loading…', isEmpty, empty, children }: QueryViewProps<T>) {
  if (query.isPending) {
    return (
      <p className="muted" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" /> {loading}
      </p>
    );
  }
  if (query.isError) {
    return (
      <div>
        <ErrorBanner error={query.error} />
        <button type="button" className="button" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (isEmpty?.(query.data)) return <div className="empty">{empty}</div>;
  return <>{children(query.data)}</>;
}
