import { Box, Table, TableBody, TableHead, TableRow, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { daysUntil } from './learningApi';

/** A small table that scrolls sideways on a narrow screen rather than squeezing its columns. */
export function CompactTable({ head, children }: { head: ReactNode; children: ReactNode }) {
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small">
        <TableHead>
          <TableRow>{head}</TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </Box>
  );
}

/** A row that opens its record: the whole row is the link. */
export function OpenRow({ to, testId, bgcolor, children }: { to: string; testId: string; bgcolor?: (theme: Theme) => string; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <TableRow hover sx={{ cursor: 'pointer', bgcolor }} onClick={() => navigate(to)} data-testid={testId}>
      {children}
    </TableRow>
  );
}

/**
 * Whether a certification has expired (by its status, or by its date before the nightly job marks it)
 * or expires within 30 days, and the expiry date's look that warns of either.
 */
export function certificationExpiry(certification: { status: string; expires_at: string }) {
  const days = daysUntil(certification.expires_at);
  const expired = certification.status === 'expired' || days < 0;
  const soon = !expired && days <= 30;
  const sx = {
    whiteSpace: 'nowrap',
    color: expired ? 'error.main' : soon ? 'warning.dark' : undefined,
    fontWeight: expired || soon ? 600 : undefined,
  } as const;
  return { expired, soon, sx };
}
