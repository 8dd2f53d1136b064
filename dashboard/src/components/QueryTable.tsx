import type { UseQueryResult } from '@tanstack/react-query';
import type { Pagination } from '../api/types';
import { DataTable, type DataTableProps } from './DataTable';
import { QueryView } from './QueryView';

type QueryTableProps<Row> = Omit<DataTableProps<Row>, 'rows' | 'pages'> & {
  /** A list the API answers: its items, and which page of how many they are where it pages. */
  query: UseQueryResult<{ items: Row[]; pagination?: Pagination }>;
  /** What to say while loading, e.g. "Loading licenses…". */
  loading: string;
  /** Turns to another page of a paged list. */
  onPage?: (page: number) => void;
};

/** A table of what a list query answers, with the loading and error states of `QueryView`. */
export function QueryTable<Row>({ query, loading, onPage, ...table }: QueryTableProps<Row>) {
  return (
    <QueryView query={query} loading={loading}>
      {(data) => <DataTable {...table} rows={data.items} pages={data.pagination && onPage && { pagination: data.pagination, onPage }} />}
    </QueryView>
  );
}
