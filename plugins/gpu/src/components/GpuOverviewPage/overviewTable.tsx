import type { TableColumn } from '@backstage/core-components';
import { Fragment } from 'react';

/** What a cell without a figure shows. */
export const dash = '—';

/** A pool's name or an amount reads badly broken over two lines. */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/**
 * A cell of parts that each stay on one line, the cell wrapping only
 * between them: a column may narrow to its widest part, so nine columns
 * fit 1280 px, and no amount breaks ("$16,029.0 / 8").
 */
export function Parts(props: { parts: string[]; stacked?: boolean }) {
  const style = props.stacked ? { ...NO_WRAP, display: 'block' } : NO_WRAP;
  return (
    <>
      {props.parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && ' '}
          <span style={style}>{part}</span>
        </Fragment>
      ))}
    </>
  );
}

/** Half the table's usual 24 px gap on the right of a cell: seven columns gain 84 px. */
const CELL_PADDING = { paddingLeft: 12, paddingRight: 12 } as const;

/**
 * Every column as wide as its content asks (material-table otherwise gives
 * each an equal share, so a short column holds space a long one lacks and
 * the last columns are cut at 1280 px), with narrower gaps.
 */
export function contentWidths<T extends object>(
  columns: TableColumn<T>[],
): TableColumn<T>[] {
  return columns.map(column => ({
    width: 'auto',
    cellStyle: CELL_PADDING,
    headerStyle: CELL_PADDING,
    ...column,
  }));
}

/** One list, no paging; a header click toggles ascending and descending, never back to unsorted. */
export const TABLE_OPTIONS = {
  paging: false,
  search: false,
  padding: 'dense',
  thirdSortClick: false,
} as const;

/** Rows without a figure sort below every figure, whichever the direction asked. */
export const byNumber =
  <T,>(pick: (row: T) => number | undefined) =>
  (a: T, b: T) =>
    (pick(a) ?? -1) - (pick(b) ?? -1);
