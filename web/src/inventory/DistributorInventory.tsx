import type { ProductView } from '@contracts/products';
import { DELIVERY_TIME_LABELS, deliveryTime, LOW_STOCK_LIMIT, STOCK_STATUS_LABELS, stockStatus, type StockStatus } from '@domain/products/products';
import { formatUsd } from '@domain/money';
import DownloadIcon from '@mui/icons-material/Download';
import {
  Box,
  Button,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useDataProvider, useGetList } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { ProductFilters, useProductFilters } from '../catalogue/ProductFilters';
import { StockChip } from '../catalogue/StockChip';
import { LoadError, Loading } from '../layout/ListStates';
import { PageTitle } from '../layout/PageTitle';
import { useToast } from '../layout/toast';
import { AccessRestricted } from '../orders/AccessRestricted';

type StockRecord = Pick<ProductView, 'id' | 'name' | 'category' | 'price' | 'stock_quantity' | 'moq' | 'updated_at'>;

type SortField = 'name' | 'category' | 'stock_quantity' | 'price' | 'moq';
const COLUMNS: Array<{ field: SortField; label: string; align?: 'right'; hideOnPhone?: boolean }> = [
  { field: 'name', label: 'Product' },
  { field: 'category', label: 'Category', hideOnPhone: true },
  { field: 'stock_quantity', label: 'Stock', align: 'right' },
  { field: 'moq', label: 'MOQ', align: 'right', hideOnPhone: true },
  { field: 'price', label: 'Price', align: 'right', hideOnPhone: true },
];
const PAGE_SIZES = [10, 25, 50];

/** How many products are in each stock level, from the catalogue read model. */
function useStockCount(enabled: boolean, stock?: StockStatus): number | undefined {
  return useGetList<StockRecord>('products', { pagination: { page: 1, perPage: 1 }, filter: stock ? { stock } : {} }, { enabled }).total;
}

const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** /distributor/inventory: stock levels of the catalogue, with low- and out-of-stock filters and delivery times. */
export default function DistributorInventory() {
  const { canDo } = useAccess();
  const toast = useToast();
  const dataProvider = useDataProvider();
  const mayBrowse = canDo('browse-products');
  const filters = useProductFilters();
  const { query, filter, filtered } = filters;
  const { category, stock, delivery } = filters.values;
  const [sort, setSort] = useState<{ field: SortField; order: 'ASC' | 'DESC' }>({ field: 'stock_quantity', order: 'ASC' });
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(10);
  useEffect(() => setPage(0), [query, category, stock, delivery, sort, perPage]);

  const { data, total, isPending, error, refetch } = useGetList<StockRecord>(
    'products',
    { pagination: { page: page + 1, perPage }, sort, filter },
    { enabled: mayBrowse },
  );
  const counts = {
    all: useStockCount(mayBrowse),
    in_stock: useStockCount(mayBrowse, 'in_stock'),
    low_stock: useStockCount(mayBrowse, 'low_stock'),
    out_of_stock: useStockCount(mayBrowse, 'out_of_stock'),
  };

  if (!mayBrowse) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <PageTitle title="Inventory" />
        <AccessRestricted>You need the Browse products permission (Orders.Browse) to see stock levels. Please contact your administrator.</AccessRestricted>
      </Box>
    );
  }

  const exportCsv = async () => {
    try {
      const rows: StockRecord[] = [];
      for (let p = 1; ; p += 1) {
        const { data: batch } = await dataProvider.getList<StockRecord>('products', { pagination: { page: p, perPage: 100 }, sort, filter });
        rows.push(...batch);
        if (batch.length < 100) break;
      }
      const lines = [
        ['Product', 'Category', 'Stock', 'Stock level', 'Delivery time', 'MOQ', 'Price (USD)'],
        ...rows.map((r) => [
          r.name,
          r.category,
          String(r.stock_quantity),
          STOCK_STATUS_LABELS[stockStatus(r.stock_quantity)],
          DELIVERY_TIME_LABELS[deliveryTime(r.stock_quantity)],
          String(r.moq),
          Number(r.price).toFixed(2),
        ]),
      ];
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([lines.map((line) => line.map(csvCell).join(',')).join('\n')], { type: 'text/csv' }));
      link.download = `inventory-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch {
      toast('The inventory could not be exported.', 'error');
    }
  };

  const cards: Array<{ key: StockStatus | ''; label: string; value: number | undefined }> = [
    { key: '', label: 'Products', value: counts.all },
    { key: 'in_stock', label: STOCK_STATUS_LABELS.in_stock, value: counts.in_stock },
    { key: 'low_stock', label: `${STOCK_STATUS_LABELS.low_stock} (${LOW_STOCK_LIMIT} or fewer)`, value: counts.low_stock },
    { key: 'out_of_stock', label: STOCK_STATUS_LABELS.out_of_stock, value: counts.out_of_stock },
  ];
  const rows = data ?? [];

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <PageTitle title="Inventory" subtitle="Stock levels of the vendor's catalogue: what you can order now and how soon it ships." />
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, mb: 2 }}>
        {cards.map((card) => (
          <Paper
            key={card.label}
            variant="outlined"
            component="button"
            onClick={() => filters.change({ stock: card.key })}
            aria-pressed={stock === card.key}
            sx={{
              p: 1.5,
              textAlign: 'left',
              cursor: 'pointer',
              font: 'inherit',
              bgcolor: stock === card.key ? 'action.selected' : 'background.paper',
              minWidth: 0,
            }}
          >
            <Typography variant="caption" color="text.secondary" component="span" sx={{ display: 'block' }} noWrap>
              {card.label}
            </Typography>
            <Typography variant="h6" component="span">
              {card.value ?? '—'}
            </Typography>
          </Paper>
        ))}
      </Box>
      <ProductFilters
        values={filters.values}
        onChange={filters.change}
        searchSx={{ flex: '2 1 240px' }}
        selectSx={{ flex: { xs: '1 1 100%', sm: '1 1 180px' }, minWidth: 0 }}
      >
        <Button variant="outlined" startIcon={<DownloadIcon />} onClick={() => void exportCsv()} disabled={!rows.length}>
          Export CSV
        </Button>
      </ProductFilters>
      <LoadError error={error} message="The inventory could not be loaded." onRetry={refetch} />
      {isPending && !error ? <Loading /> : null}
      {!isPending && !error && rows.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">{filtered ? 'No products found' : 'No products yet'}</Typography>
        </Paper>
      ) : null}
      {rows.length > 0 ? (
        <Paper variant="outlined" sx={{ minWidth: 0 }}>
          <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }}>
            <Table size="small" aria-label="Inventory">
              <TableHead>
                <TableRow>
                  {COLUMNS.map((column) => (
                    <TableCell key={column.field} align={column.align} sx={column.hideOnPhone ? { display: { xs: 'none', md: 'table-cell' } } : undefined}>
                      <TableSortLabel
                        active={sort.field === column.field}
                        direction={sort.field === column.field ? (sort.order === 'ASC' ? 'asc' : 'desc') : 'asc'}
                        onClick={() => setSort((s) => ({ field: column.field, order: s.field === column.field && s.order === 'ASC' ? 'DESC' : 'ASC' }))}
                      >
                        {column.label}
                      </TableSortLabel>
                    </TableCell>
                  ))}
                  <TableCell>Delivery time</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row) => (
                  <TableRow key={row.id} hover data-testid="inventory-row">
                    <TableCell sx={{ wordBreak: 'break-word' }}>
                      {row.name}
                      <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', md: 'none' } }}>
                        {row.category} · MOQ {row.moq} · {formatUsd(Number(row.price))}
                      </Typography>
                    </TableCell>
                    <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{row.category}</TableCell>
                    <TableCell align="right">
                      <StockChip stock={row.stock_quantity} />
                    </TableCell>
                    <TableCell align="right" sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                      {row.moq}
                    </TableCell>
                    <TableCell align="right" sx={{ display: { xs: 'none', md: 'table-cell' }, whiteSpace: 'nowrap' }}>
                      {formatUsd(Number(row.price))}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{DELIVERY_TIME_LABELS[deliveryTime(row.stock_quantity)]}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={total ?? 0}
            page={page}
            onPageChange={(_, p) => setPage(p)}
            rowsPerPage={perPage}
            onRowsPerPageChange={(e) => setPerPage(Number(e.target.value))}
            rowsPerPageOptions={PAGE_SIZES}
          />
        </Paper>
      ) : null}
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1.5 }}>
        Stock is what can be ordered now; units held for open orders are already taken off. Ready to order?{' '}
        <RouterLink to="/catalogue">Open the Catalogue</RouterLink>.
      </Typography>
    </Box>
  );
}
