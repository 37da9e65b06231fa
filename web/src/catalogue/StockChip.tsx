import { STOCK_STATUS_LABELS, stockStatus } from '@domain/products/products';
import { Chip } from '@mui/material';

const COLOURS = { in_stock: 'success', low_stock: 'warning', out_of_stock: 'error' } as const;

/** In Stock (more than 10), Low Stock (1 to 10) or Out of Stock, with the count. */
export function StockChip({ stock, showCount = true }: { stock: number; showCount?: boolean }) {
  const status = stockStatus(stock);
  const label = STOCK_STATUS_LABELS[status];
  return (
    <Chip
      size="small"
      variant={status === 'in_stock' ? 'filled' : 'outlined'}
      color={COLOURS[status]}
      label={showCount && stock > 0 ? `${label} (${stock.toLocaleString('en-US')})` : label}
      data-stock-status={status}
      sx={{ fontWeight: 600, maxWidth: '100%' }}
    />
  );
}
