import { formatUsd, PRODUCT_CATEGORIES } from '@domain/catalogue/catalogue';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import {
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  MenuItem,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useGetList } from 'react-admin';
import { StockChip } from '../catalogue/StockChip';
import { useToast } from '../layout/toast';
import { ApiError, messageOf } from '../providers/errorMapper';
import { ProductCreate } from './ProductCreate';
import { ProductEdit } from './ProductEdit';
import HistoryIcon from '@mui/icons-material/History';
import { HistoryDrawer } from '../history';
import { ProductThumb } from './ProductThumb';
import { deleteProduct, deleteProducts, type ProductRecord } from './productsApi';
import { useDebounced } from '../layout/useDebounced';
import {
  DateText,
  EmptyState,
  ListPagination,
  ListToolbar,
  LoadError,
  Loading,
  RecordTable,
  SelectRowBox,
  useListControls,
  useSelection,
  type CsvColumn,
  type ListSortChoice,
  type RecordColumn,
} from '../lists';

export const deleteProductConfirmation = (name: string) => `Are you sure you want to delete product ${name}? This action cannot be undone.`;
export const deleteProductsConfirmation = (count: number) => `Are you sure you want to delete ${count} product${count === 1 ? '' : 's'}? This action cannot be undone.`;


function RowActions({ product, onEdit, onDelete, onHistory }: { product: ProductRecord; onEdit: () => void; onDelete: () => void; onHistory: () => void }) {
  return (
    <Box sx={{ display: 'flex', gap: 0.25, justifyContent: 'flex-end' }}>
      <Tooltip title="History">
        <IconButton size="small" aria-label={`History of ${product.name}`} onClick={onHistory}>
          <HistoryIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title="Edit">
        <IconButton size="small" aria-label={`Edit ${product.name}`} onClick={onEdit}>
          <EditIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title="Delete">
        <IconButton size="small" color="error" aria-label={`Delete ${product.name}`} onClick={onDelete}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

const STOCK_FILTERS = [
  { value: '', label: 'Any stock' },
  { value: 'in_stock', label: 'In stock' },
  { value: 'low_stock', label: 'Low stock' },
  { value: 'out_of_stock', label: 'Out of stock' },
] as const;

const SORT_CHOICES: ListSortChoice[] = [
  { field: 'created_at', order: 'DESC', label: 'Newest first' },
  { field: 'name', order: 'ASC', label: 'Name A–Z' },
  { field: 'price', order: 'ASC', label: 'Price, lowest first' },
  { field: 'price', order: 'DESC', label: 'Price, highest first' },
  { field: 'stock_quantity', order: 'ASC', label: 'Stock, lowest first' },
];

const CSV_COLUMNS: CsvColumn<ProductRecord>[] = [
  { label: 'Product', value: (p) => p.name },
  { label: 'Category', value: (p) => p.category },
  { label: 'Price (USD)', value: (p) => p.price },
  { label: 'Stock', value: (p) => p.stock_quantity },
  { label: 'Stock status', value: (p) => p.stock_status },
  { label: 'MOQ', value: (p) => p.moq },
  { label: 'Delivery time', value: (p) => p.delivery_time },
  { label: 'Created', value: (p) => p.created_at },
];

const columns = (actions: (product: ProductRecord) => ReactNode): RecordColumn<ProductRecord>[] => [
  {
    label: 'Product',
    sortField: 'name',
    cellSx: { minWidth: 200 },
    render: (product) => (
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
        <ProductThumb src={product.image_url} name={product.name} size={40} />
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {product.name}
        </Typography>
      </Box>
    ),
  },
  { label: 'Category', sortField: 'category', render: (product) => product.category },
  { label: 'Price', sortField: 'price', align: 'right', firstOrder: 'DESC', cellSx: { whiteSpace: 'nowrap' }, render: (product) => formatUsd(product.price) },
  { label: 'Stock', sortField: 'stock_quantity', render: (product) => <StockChip stock={product.stock_quantity} /> },
  { label: 'MOQ', sortField: 'moq', align: 'right', render: (product) => product.moq },
  { label: 'Created', sortField: 'created_at', firstOrder: 'DESC', render: (product) => <DateText value={product.created_at} /> },
  { label: 'Actions', align: 'right', render: actions },
];

/** Product Management: search, category and stock filters, Add Product, Export, the sortable products table with bulk delete, edit and delete. */
export function ProductList() {
  const toast = useToast();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [stock, setStock] = useState('');
  const query = useDebounced(search.trim(), 300);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<ProductRecord | null>(null);
  const [deleting, setDeleting] = useState<ProductRecord | null>(null);
  const [history, setHistory] = useState<ProductRecord | null>(null);
  const [busy, setBusy] = useState(false);

  const filter: Record<string, string> = {};
  if (query) filter.q = query;
  if (category) filter.category = category;
  if (stock) filter.stock = stock;
  const controls = useListControls({ sort: { field: 'created_at', order: 'DESC' }, filterKey: JSON.stringify(filter) });
  const { data, total, isPending, error, refetch } = useGetList<ProductRecord>('products', { ...controls.params, filter });
  const products = data ?? [];
  const selection = useSelection(products.map((p) => p.id));
  const [bulkDeleting, setBulkDeleting] = useState(false);
  const filtered = Boolean(query || category || stock);
  const clearFilters = () => {
    setSearch('');
    setCategory('');
    setStock('');
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await deleteProduct(deleting.id);
      toast('Product deleted successfully!', 'success');
      setDeleting(null);
      void refetch();
    } catch (e) {
      if (e instanceof ApiError && e.status !== 0) toast(e.message !== 'An error occurred' ? e.message : 'Failed to delete product', 'error');
      else toast('An error occurred while deleting the product', 'error');
    } finally {
      setBusy(false);
    }
  };

  const confirmBulkDelete = async () => {
    setBusy(true);
    try {
      const answer = await deleteProducts(selection.ids);
      toast(answer.message, 'success');
      selection.clear();
      setBulkDeleting(false);
    } catch (e) {
      // All or nothing: the server removed nothing and says which rows stopped it.
      toast(messageOf(e, 'Failed to delete the products'), 'error');
    } finally {
      setBusy(false);
      void refetch();
    }
  };

  const bulkActions = (
    <Button size="small" variant="outlined" color="error" startIcon={<DeleteIcon />} disabled={busy} onClick={() => setBulkDeleting(true)}>
      Delete
    </Button>
  );

  const actions = (product: ProductRecord) => <RowActions product={product} onEdit={() => setEditing(product)} onDelete={() => setDeleting(product)} onHistory={() => setHistory(product)} />;

  return (
    <Box>
      <ListToolbar
        search={{ value: search, onChange: setSearch, placeholder: 'Search products' }}
        filters={
          <>
            <TextField select size="small" label="Category" value={category} onChange={(e) => setCategory(e.target.value)} sx={{ flex: { xs: '1 1 160px', sm: '0 1 240px' } }}>
              <MenuItem value="">All Categories</MenuItem>
              {PRODUCT_CATEGORIES.map((c) => (
                <MenuItem key={c} value={c}>
                  {c}
                </MenuItem>
              ))}
            </TextField>
            <TextField select size="small" label="Stock" value={stock} onChange={(e) => setStock(e.target.value)} sx={{ flex: { xs: '1 1 130px', sm: '0 0 150px' } }}>
              {STOCK_FILTERS.map((choice) => (
                <MenuItem key={choice.value} value={choice.value}>
                  {choice.label}
                </MenuItem>
              ))}
            </TextField>
          </>
        }
        sortChoices={SORT_CHOICES}
        sort={controls.sort}
        onSortChange={controls.setSort}
        exportCsv={{ resource: 'products', filter, sort: controls.sort, fileName: 'products', columns: CSV_COLUMNS }}
        create={{ label: 'Add Product', onClick: () => setAdding(true) }}
        selection={selection}
        bulkActions={bulkActions}
      />

      <LoadError error={error} onRetry={refetch} message={error instanceof ApiError && error.status !== 0 ? (error.message !== 'An error occurred' ? error.message : 'Failed to fetch products') : 'An error occurred while fetching products'} />

      {isPending ? (
        <Loading />
      ) : (
        <RecordTable
          label="Products"
          rows={products}
          rowId={(product) => product.id}
          columns={columns(actions)}
          sort={controls.sort}
          onSort={controls.sortBy}
          selection={selection}
          selectLabel={(product) => `Select ${product.name}`}
          rowProps={(product) => ({ 'data-testid': 'product-row', 'data-product': product.name })}
          card={(product) => (
            <Card variant="outlined" data-testid="product-row" data-product={product.name}>
              <CardContent sx={{ pb: '12px !important' }}>
                <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
                  <SelectRowBox selection={selection} id={product.id} label={`Select ${product.name}`} />
                  <ProductThumb src={product.image_url} name={product.name} />
                  <Box sx={{ minWidth: 0, flex: 1 }}>
                    <Typography variant="subtitle2" sx={{ wordBreak: 'break-word' }}>
                      {product.name}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {product.category}
                    </Typography>
                  </Box>
                </Box>
                {/* The actions sit on the figures' line so the name keeps the card's width. */}
                <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mt: 1 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {formatUsd(product.price)}
                  </Typography>
                  <StockChip stock={product.stock_quantity} />
                  <Typography variant="caption" color="text.secondary">
                    MOQ {product.moq} · Created <DateText value={product.created_at} />
                  </Typography>
                  <Box sx={{ ml: 'auto' }}>{actions(product)}</Box>
                </Box>
              </CardContent>
            </Card>
          )}
          empty={
            <EmptyState
              title={filtered ? 'No products found' : 'No products yet'}
              message={filtered ? 'Try another search, category or stock level.' : 'Add the first product to the catalogue.'}
              filtered={filtered}
              onClearFilters={clearFilters}
              action={
                <Button variant="contained" onClick={() => setAdding(true)}>
                  Add Product
                </Button>
              }
            />
          }
        />
      )}
      <ListPagination total={total} controls={controls} />

      <ProductCreate open={adding} onClose={() => setAdding(false)} onCreated={() => void refetch()} />
      <ProductEdit record={editing} onClose={() => setEditing(null)} onSaved={() => void refetch()} />
      <HistoryDrawer path="/products" record={history ? { id: history.id, name: history.name } : null} onClose={() => setHistory(null)} />

      <Dialog open={bulkDeleting} onClose={() => !busy && setBulkDeleting(false)} aria-labelledby="delete-products-title">
        <DialogTitle id="delete-products-title">Delete Products</DialogTitle>
        <DialogContent>
          <DialogContentText>{deleteProductsConfirmation(selection.count)}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setBulkDeleting(false)} disabled={busy}>
            Cancel
          </Button>
          <Button color="error" variant="contained" onClick={() => void confirmBulkDelete()} disabled={busy}>
            {busy ? 'Deleting...' : 'Delete'}
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog open={Boolean(deleting)} onClose={() => !busy && setDeleting(null)} aria-labelledby="delete-product-title">
        <DialogTitle id="delete-product-title">Delete Product</DialogTitle>
        <DialogContent>
          <DialogContentText>{deleting ? deleteProductConfirmation(deleting.name) : ''}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)} disabled={busy}>
            Cancel
          </Button>
          <Button color="error" variant="contained" onClick={() => void confirmDelete()} disabled={busy}>
            {busy ? 'Deleting...' : 'Delete'}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

/** The admin panel's Product Management tab. */
export function ProductManagement() {
  return (
    <>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        Product Management
      </Typography>
      <ProductList />
    </>
  );
}
