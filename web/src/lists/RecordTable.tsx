import {
  Box,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  useMediaQuery,
  type Breakpoint,
  type TableCellProps,
  type Theme,
} from '@mui/material';
import type { SystemStyleObject } from '@mui/system';
import { Fragment, type ReactNode } from 'react';
import type { ListSort, SortOrder } from './listControls';
import { SelectAllCell, SelectRowCell, type Selection } from './selection';
import { PlainHeader, SortableHeader } from './SortableHeader';

/** One column of a RecordTable. */
export interface RecordColumn<T> {
  label: string;
  /** The list's sort field; without it the header does not sort. */
  sortField?: string;
  /** Order of the first click: DESC for dates and amounts. */
  firstOrder?: SortOrder;
  align?: TableCellProps['align'];
  render: (row: T) => ReactNode;
  cellSx?: SystemStyleObject<Theme>;
  /**
   * Below this width the column is left out (header and cells), so the table fits the screen
   * without sideways scrolling; what it shows must be reachable another way (a row's details).
   */
  hideBelow?: Breakpoint;
  /** The column that names the row: the column chooser cannot hide it. */
  alwaysShown?: boolean;
}

/** Hides a cell below the breakpoint; `display` must stay `table-cell` above it or the columns shift. */
export const hiddenBelow = (breakpoint: Breakpoint | undefined): SystemStyleObject<Theme> =>
  breakpoint ? { display: { xs: 'none', [breakpoint]: 'table-cell' } } : {};

/** What a RecordTable shows and how its rows are named, ticked and sorted. */
export interface RecordTableProps<T> {
  /** The table's accessible name. */
  label: string;
  rows: readonly T[];
  rowId: (row: T) => string;
  columns: RecordColumn<T>[];
  sort: ListSort;
  onSort: (field: string, firstOrder?: SortOrder) => void;
  selection?: Selection;
  /** Rows that may be ticked (the others get an empty checkbox cell); all when absent. */
  canSelect?: (row: T) => boolean;
  /** The row checkbox's accessible name. */
  selectLabel?: (row: T) => string;
  /** Extra attributes of a row (and of its phone card), such as test ids. */
  rowProps?: (row: T) => Record<string, string>;
  empty: ReactNode;
  /** One row as a card; phones (below md) show cards instead of the table. */
  card?: (row: T) => ReactNode;
  cardsProps?: Record<string, string>;
}

/**
 * The body of every admin list: the empty state when there are no rows, cards on phones (when the
 * list has them), otherwise the table with sortable headers and, with a selection, a checkbox
 * column whose header ticks the whole page.
 */
export function RecordTable<T>({
  label,
  rows,
  rowId,
  columns,
  sort,
  onSort,
  selection,
  canSelect,
  selectLabel,
  rowProps,
  empty,
  card,
  cardsProps,
}: RecordTableProps<T>) {
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  if (rows.length === 0) return <>{empty}</>;

  if (phone && card) {
    return (
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }} {...cardsProps}>
        {rows.map((row) => (
          <Fragment key={rowId(row)}>{card(row)}</Fragment>
        ))}
      </Box>
    );
  }

  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {selection ? <SelectAllCell selection={selection} /> : null}
            {columns.map((column) =>
              column.sortField ? (
                <SortableHeader
                  key={column.label}
                  field={column.sortField}
                  label={column.label}
                  sort={sort}
                  onSort={onSort}
                  firstOrder={column.firstOrder}
                  align={column.align}
                  sx={hiddenBelow(column.hideBelow)}
                />
              ) : (
                <PlainHeader key={column.label} align={column.align} sx={hiddenBelow(column.hideBelow)}>
                  {column.label}
                </PlainHeader>
              ),
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => {
            const id = rowId(row);
            return (
              <TableRow key={id} hover selected={selection ? selection.has(id) : false} {...rowProps?.(row)}>
                {selection ? (
                  !canSelect || canSelect(row) ? (
                    <SelectRowCell selection={selection} id={id} label={selectLabel ? selectLabel(row) : 'Select row'} />
                  ) : (
                    <TableCell padding="checkbox" />
                  )
                ) : null}
                {columns.map((column) => (
                  <TableCell key={column.label} align={column.align} sx={{ ...column.cellSx, ...hiddenBelow(column.hideBelow) }}>
                    {column.render(row)}
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
