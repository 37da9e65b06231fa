import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import { Button, Checkbox, Divider, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import { useState, type MouseEvent } from 'react';
import type { RecordColumn } from './RecordTable';
import { useUserStore } from './userStore';

/**
 * The columns a user chose to see in one table, remembered per user (react-admin's store). Columns
 * marked `alwaysShown` (what names the row) cannot be hidden. Unknown labels in the store (a column
 * renamed since) are ignored.
 */
export function useColumnChoice<T>(storeKey: string, columns: RecordColumn<T>[], hiddenByDefault: string[] = []) {
  const [hidden, setHidden] = useUserStore<string[]>(`${storeKey}.hiddenColumns`, hiddenByDefault);
  const shown = columns.filter((column) => column.alwaysShown || !hidden.includes(column.label));
  return {
    columns,
    shown,
    hidden,
    toggle: (label: string) => setHidden(hidden.includes(label) ? hidden.filter((h) => h !== label) : [...hidden, label]),
    reset: () => setHidden(hiddenByDefault),
  };
}

export type ColumnChoice<T> = ReturnType<typeof useColumnChoice<T>>;

/** The "Columns" button: a menu of the table's columns with a tick for each one shown, as react-admin's SelectColumnsButton. */
export function ColumnChooser<T>({ choice, compact = false }: { choice: ColumnChoice<T>; compact?: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const props = {
    onClick: (event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget),
    'aria-haspopup': 'menu' as const,
    'aria-expanded': Boolean(anchor),
  };
  return (
    <>
      {compact ? (
        <Tooltip title="Columns">
          <Button variant="outlined" aria-label="Columns" sx={{ minWidth: 0, px: 1.25, flex: '0 0 auto !important' }} {...props}>
            <ViewColumnIcon fontSize="small" />
          </Button>
        </Tooltip>
      ) : (
        <Button variant="outlined" startIcon={<ViewColumnIcon />} {...props}>
          Columns
        </Button>
      )}
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)} slotProps={{ list: { 'aria-label': 'Columns shown', dense: true } }}>
        {choice.columns.map((column) => {
          const visible = column.alwaysShown || !choice.hidden.includes(column.label);
          return (
            <MenuItem
              key={column.label}
              disabled={column.alwaysShown}
              onClick={() => choice.toggle(column.label)}
              role="menuitemcheckbox"
              aria-checked={visible}
            >
              <ListItemIcon>
                <Checkbox size="small" edge="start" checked={visible} tabIndex={-1} disableRipple sx={{ p: 0 }} />
              </ListItemIcon>
              <ListItemText>{column.label}</ListItemText>
            </MenuItem>
          );
        })}
        <Divider />
        <MenuItem onClick={choice.reset}>
          <ListItemText inset>Reset columns</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
