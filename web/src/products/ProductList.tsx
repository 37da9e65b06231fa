import { formatUsd, PRODUCT_CATEGORIES } from '@domain/catalogue/catalogue';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import SearchIcon from '@mui/icons-material/Search';
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
  InputAdornment,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useGetList } from 'react-admin';
import { StockChip } from '../catalogue/StockChip';
import { formatDate } from '../formatting';
import { useToast } from '../layout/toast';
import { ApiError } from '../providers/errorMapper';
import { ProductCreate } from './ProductCreate';
import { ProductEdit } from './ProductEdit';
import HistoryIcon from '@mui/icons-material/History';
import { HistoryDrawer } from '../history';
import { ProductThumb } from './ProductThumb';
import { deleteProduct, type ProductRecord } from './productsApi';
import { useDebounced } from '../layout/useDebounced';
import { LoadError, Loading } from '../layout/ListStates';

const PAGE_SIZE = 10;

export const deleteProductConfirmation = (name: string) => `Are you sure you want to delete product ${name}? This action cannot be undone.`;


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

/** Product Management: search, category filter, Add Product, the products table, edit and delete. */
export function ProductList() {
  const toast = useToast();
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const query = useDebounced(search.trim(), 300);
  const [page, setPage] = useState(0);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<ProductRecord | null>(null);
  const [deleting, setDeleting] = useState<ProductRecord | null>(null);
  const [history, setHistory] = useState<ProductRecord | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => setPage(0), [query, category]);

  const filter: Record<string, string> = {};
  if (query) filter.q = query;
  if (category) filter.category = category;
  const { data, total, isPending, error, refetch } = useGetList<ProductRecord>('products', {
    pagination: { page: page + 1, perPage: PAGE_SIZE },
    sort: { field: 'created_at', order: 'DESC' },
    filter,
  });
  const products = data ?? [];
  const filtered = Boolean(query || category);

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

  const actions = (product: ProductRecord) => <RowActions product={product} onEdit={() => setEditing(product)} onDelete={() => setDeleting(product)} onHistory={() => setHistory(product)} />;

  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <TextField
          size="small"
          placeholder="Search products"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          sx={{ flex: { xs: '1 1 100%', sm: '1 1 260px' } }}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> }, htmlInput: { 'aria-label': 'Search products' } }}
        />
        <TextField select size="small" label="Category" value={category} onChange={(e) => setCategory(e.target.value)} sx={{ flex: { xs: '1 1 100%', sm: '0 1 260px' } }}>
          <MenuItem value="">All Categories</MenuItem>
          {PRODUCT_CATEGORIES.map((c) => (
            <MenuItem key={c} value={c}>
              {c}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)} sx={{ flex: { xs: '1 1 100%', sm: '0 0 auto' }, ml: { sm: 'auto' } }}>
          Add Product
        </Button>
      </Box>

      <LoadError error={error} onRetry={refetch} message={error instanceof ApiError && error.status !== 0 ? (error.message !== 'An error occurred' ? error.message : 'Failed to fetch products') : 'An error occurred while fetching products'} />

      {isPending ? (
        <Loading />
      ) : products.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {filtered ? 'No products found' : 'No products yet'}
        </Typography>
      ) : phone ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          {products.map((product) => (
            <Card key={product.id} variant="outlined" data-testid="product-row">
              <CardContent sx={{ pb: '12px !important' }}>
                <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
                  <ProductThumb src={product.image_url} name={product.name} />
                  <Box sx={{ minWidth: 0, flex: 1 }}>
                    <Typography variant="subtitle2" sx={{ wordBreak: 'break-word' }}>
                      {product.name}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {product.category}
                    </Typography>
                  </Box>
                  {actions(product)}
                </Box>
                <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mt: 1 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {formatUsd(product.price)}
                  </Typography>
                  <StockChip stock={product.stock_quantity} />
                  <Typography variant="caption" color="text.secondary">
                    MOQ {product.moq} · Created {formatDate(product.created_at)}
                  </Typography>
                </Box>
              </CardContent>
            </Card>
          ))}
        </Box>
      ) : (
        <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}>
          <Table size="small" aria-label="Products">
            <TableHead>
              <TableRow>
                {['Product', 'Category', 'Price', 'Stock', 'MOQ', 'Created', 'Actions'].map((column) => (
                  <TableCell key={column} align={['Price', 'MOQ', 'Actions'].includes(column) ? 'right' : 'left'} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                    {column}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {products.map((product) => (
                <TableRow key={product.id} hover data-testid="product-row">
                  <TableCell sx={{ minWidth: 200 }}>
                    <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
                      <ProductThumb src={product.image_url} name={product.name} size={40} />
                      <Typography variant="body2" sx={{ fontWeight: 500 }}>
                        {product.name}
                      </Typography>
                    </Box>
                  </TableCell>
                  <TableCell>{product.category}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {formatUsd(product.price)}
                  </TableCell>
                  <TableCell>
                    <StockChip stock={product.stock_quantity} />
                  </TableCell>
                  <TableCell align="right">{product.moq}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(product.created_at)}</TableCell>
                  <TableCell align="right">{actions(product)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {total !== undefined && total > PAGE_SIZE ? (
        <TablePagination component="div" count={total} page={page} rowsPerPage={PAGE_SIZE} rowsPerPageOptions={[PAGE_SIZE]} onPageChange={(_, next) => setPage(next)} />
      ) : null}

      <ProductCreate open={adding} onClose={() => setAdding(false)} onCreated={() => void refetch()} />
      <ProductEdit record={editing} onClose={() => setEditing(null)} onSaved={() => void refetch()} />
      <HistoryDrawer path="/products" record={history ? { id: history.id, name: history.name } : null} onClose={() => setHistory(null)} />

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
