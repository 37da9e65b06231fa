import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import { Box, Button, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * What every list shows when it has no rows. With `filtered` it says nothing matched and offers to
 * clear the filters; otherwise it explains the empty list and may offer the list's first action.
 */
export function EmptyState({
  title,
  message,
  filtered = false,
  onClearFilters,
  action,
}: {
  title: string;
  message?: ReactNode;
  filtered?: boolean;
  onClearFilters?: () => void;
  action?: ReactNode;
}) {
  const Icon = filtered ? SearchOffIcon : InboxOutlinedIcon;
  return (
    <Box
      role="status"
      data-testid="list-empty"
      sx={{ textAlign: 'center', py: 5, px: 2, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}
    >
      <Icon sx={{ fontSize: 48, color: 'text.disabled' }} aria-hidden />
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600, mt: 1 }}>
        {title}
      </Typography>
      {message ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, maxWidth: 420, mx: 'auto' }}>
          {message}
        </Typography>
      ) : null}
      <Box sx={{ mt: 2, display: 'flex', gap: 1, justifyContent: 'center', flexWrap: 'wrap' }}>
        {filtered && onClearFilters ? (
          <Button variant="outlined" size="small" onClick={onClearFilters}>
            Clear filters
          </Button>
        ) : null}
        {!filtered ? action : null}
      </Box>
    </Box>
  );
}
