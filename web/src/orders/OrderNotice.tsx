import { Alert } from '@mui/material';

/** The confirmation of a status change above the orders list and the tracking page. */
export function OrderNotice({ notice, onClose }: { notice: string | null; onClose: () => void }) {
  if (!notice) return null;
  return (
    <Alert severity="success" sx={{ mb: 2 }} role="status" data-testid="orders-notice" onClose={onClose}>
      {notice}
    </Alert>
  );
}
