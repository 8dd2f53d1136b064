import type { Key, ReactNode } from 'react';
import { ListBody, type Pages } from './ListBody';
import { TableScroll } from './TableScroll';

/** One column of a `DataTable`: its heading, what each row shows in it, and a class for its cells. */
export type Column<Row> = {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  className?: string;
};

export type DataTableProps<Row> = {
  /** The table's name, which its scrolling region is called by. */
  label: string;
  rows: readonly Row[];
  /** What tells a row from the others (React's key): its `id`, unless told. */
  rowKey?: (row: Row) => Key;
  /** In order; `false` for a column the viewer does not get (a role's actions). */
  columns: readonly (Column<Row> | false)[];
  /** Shown instead of the table when there are no rows (nothing is, without it). */
  empty?: ReactNode;
  /** The rows are a page of more: the pager goes under the table. */
  pages?: Pages;
};

const idOf = (row: unknown) => (row as { id: Key }).id;

/**
 * The dashboard's tables, from column definitions: one scrolling, named region per table (see `TableScroll`), the
 * empty state when there are no rows, and the pager when the rows are a page of more. Rendering is all it does (the
 * service sorts, filters and pages), so it is a map over the columns rather than a table library.
 */
export function DataTable<Row>({ label, rows, columns, empty, pages, rowKey = idOf }: DataTableProps<Row>) {
  const shown = columns.filter((column) => column !== false);
  return (
    <ListBody count={rows.length} empty={empty} pages={pages}>
      <TableScroll label={label}>
        <table>
          <thead>
            <tr>
              {shown.map((column, index) => (
                <th key={index} scope="col">
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                {shown.map((column, index) => (
                  <td key={index} className={column.className}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </ListBody>
  );
}

/** A column of row actions (buttons), headed "Actions" for screen readers only. */
export function actionsColumn<Row>(cell: (row: Row) => ReactNode): Column<Row> {
  return {
    header: <span className="visually-hidden">Actions</span>,
    cell,
  };
}
