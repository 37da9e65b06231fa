import { Checkbox, TableCell } from '@mui/material';
import { useCallback, useEffect, useMemo, useState } from 'react';

/**
 * The rows ticked for a bulk action. Only rows on the current page can be ticked; ticks of rows
 * that left the page (another page, a new filter) are dropped so an action never touches a row the
 * user cannot see.
 */
export function useSelection(visibleIds: readonly string[]) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const key = visibleIds.join(',');

  useEffect(() => {
    setSelected((current) => {
      const kept = [...current].filter((id) => visibleIds.includes(id));
      return kept.length === current.size ? current : new Set(kept);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for visibleIds by value (a new array each render)
  }, [key]);

  const toggle = useCallback((id: string, on: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  const all = visibleIds.length > 0 && visibleIds.every((id) => selected.has(id));
  const some = !all && visibleIds.some((id) => selected.has(id));

  return useMemo(
    () => ({
      ids: [...selected],
      count: selected.size,
      has: (id: string) => selected.has(id),
      toggle,
      all,
      some,
      toggleAll: (on: boolean) => setSelected(on ? new Set(visibleIds) : new Set()),
      clear: () => setSelected(new Set()),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for visibleIds by value (a new array each render)
    [selected, all, some, key, toggle],
  );
}

export type Selection = ReturnType<typeof useSelection>;

/** The header checkbox: ticks or clears every row on the page. */
export function SelectAllCell({ selection, label = 'Select all rows on this page' }: { selection: Selection; label?: string }) {
  return (
    <TableCell padding="checkbox">
      <Checkbox
        size="small"
        checked={selection.all}
        indeterminate={selection.some}
        onChange={(event) => selection.toggleAll(event.target.checked)}
        slotProps={{ input: { 'aria-label': label } }}
      />
    </TableCell>
  );
}

/** One row's checkbox; ticking it never also opens the row (rows that open on click). */
export function SelectRowCell({ selection, id, label }: { selection: Selection; id: string; label: string }) {
  return (
    <TableCell padding="checkbox" onClick={(event) => event.stopPropagation()}>
      <Checkbox
        size="small"
        checked={selection.has(id)}
        onChange={(event) => selection.toggle(id, event.target.checked)}
        slotProps={{ input: { 'aria-label': label } }}
      />
    </TableCell>
  );
}

/** The same checkbox outside a table (phone cards). */
export function SelectRowBox({ selection, id, label }: { selection: Selection; id: string; label: string }) {
  return (
    <Checkbox
      size="small"
      checked={selection.has(id)}
      onChange={(event) => selection.toggle(id, event.target.checked)}
      slotProps={{ input: { 'aria-label': label } }}
      sx={{ p: 0.5 }}
    />
  );
}
