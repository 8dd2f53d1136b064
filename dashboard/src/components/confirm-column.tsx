import type { ReactNode } from 'react';
import { ConfirmButton } from './ConfirmButton';
import { actionsColumn, type Column } from './DataTable';

type ConfirmColumn<Row> = {
  /** The action's word, on the row's button and the dialog's. */
  label: string;
  /** The question the dialog asks about the row. */
  title: (row: Row) => string;
  /** What acting does, said under the question. */
  consequence?: ReactNode | ((row: Row) => ReactNode);
  /** The rows it applies to (every row, without it); the others show no button. */
  when?: (row: Row) => boolean;
  onConfirm: (row: Row) => void;
};

/** A column of one action per row that asks before it acts (revoke, remove, deactivate…), in a `ConfirmButton`. */
export function confirmColumn<Row>({ label, title, consequence, when, onConfirm }: ConfirmColumn<Row>): Column<Row> {
  return actionsColumn(
    (row) =>
      (when?.(row) ?? true) && (
        <ConfirmButton label={label} title={title(row)} onConfirm={() => onConfirm(row)}>
          {consequence !== undefined && <p>{typeof consequence === 'function' ? consequence(row) : consequence}</p>}
        </ConfirmButton>
      ),
  );
}
