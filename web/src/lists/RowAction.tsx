import { Box, IconButton, Tooltip } from '@mui/material';
import type { ReactNode } from 'react';

/** One icon action of a list's row, with its tooltip; one that can be disabled keeps the tooltip on a wrapper, since a disabled button shows none. */
export function RowAction({
  title,
  label,
  icon,
  onClick,
  disabled,
  color,
}: {
  title: string;
  /** The accessible name, which names the row: "Edit Acme". */
  label: string;
  icon: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  color?: 'error';
}) {
  const button = (
    <IconButton size="small" aria-label={label} onClick={onClick} disabled={disabled} color={color}>
      {icon}
    </IconButton>
  );
  return <Tooltip title={title}>{disabled === undefined ? button : <span>{button}</span>}</Tooltip>;
}

/** A row's icon actions, at the end of the row. */
export function RowActions({ children }: { children: ReactNode }) {
  return <Box sx={{ display: 'flex', gap: 0.25, justifyContent: 'flex-end' }}>{children}</Box>;
}
