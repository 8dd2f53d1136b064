import type { ReactNode } from 'react';
import type { Pagination } from '../api/types';
import { Pager } from './Pager';

/** A page of a longer list, and how to go to another. */
export type Pages = { pagination: Pagination; onPage: (page: number) => void };

type ListBodyProps = {
  count: number;
  /** Shown instead of the list when it holds nothing (nothing is, without it). */
  empty?: ReactNode;
  pages?: Pages;
  children: ReactNode;
};

/** What every list shows around its items: the empty state when there are none, the pager under a page of more. */
export function ListBody({ count, empty, pages, children }: ListBodyProps) {
  if (count === 0) return empty === undefined ? null : <div className="empty">{empty}</div>;
  return (
    <>
      {children}
      {pages && <Pager pagination={pages.pagination} onPage={pages.onPage} />}
    </>
  );
}
