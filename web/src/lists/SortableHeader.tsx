import { TableCell, TableSortLabel, type TableCellProps, type Theme } from '@mui/material';
import type { SystemStyleObject } from '@mui/system';
import type { ReactNode } from 'react';
import type { ListSort, SortOrder } from './listControls';

const headerSx = { fontWeight: 600, whiteSpace: 'nowrap' } as const;

/**
 * A column header the list can sort by. `firstOrder` is the order of the first click: DESC for
 * dates and amounts (newest and largest first), ASC for names.
 */
export function SortableHeader({
  field,
  label,
  sort,
  onSort,
  firstOrder = 'ASC',
  align,
  sx,
}: {
  field: string;
  label: string;
  sort: ListSort;
  onSort: (field: string, firstOrder?: SortOrder) => void;
  firstOrder?: SortOrder;
  align?: TableCellProps['align'];
  sx?: SystemStyleObject<Theme>;
}) {
  const active = sort.field === field;
  return (
    <TableCell sx={{ ...headerSx, ...sx }} align={align} sortDirection={active ? (sort.order === 'ASC' ? 'asc' : 'desc') : false}>
      <TableSortLabel
        active={active}
        direction={active ? (sort.order === 'ASC' ? 'asc' : 'desc') : firstOrder === 'ASC' ? 'asc' : 'desc'}
        onClick={() => onSort(field, firstOrder)}
      >
        {label}
      </TableSortLabel>
    </TableCell>
  );
}

/** A column header the list cannot sort by, styled like the sortable ones. */
export function PlainHeader({ children, align, sx }: { children?: ReactNode; align?: TableCellProps['align']; sx?: SystemStyleObject<Theme> }) {
  return (
    <TableCell sx={{ ...headerSx, ...sx }} align={align}>
      {children}
    </TableCell>
  );
}
