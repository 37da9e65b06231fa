import type { CatalogueProduct } from '@contracts/products';
import { canShip } from '@domain/access';
import { DELIVERY_TIME_LABELS, deliveryTime } from '@domain/products/products';
import { formatUsd } from '@domain/money';
import AddShoppingCartIcon from '@mui/icons-material/AddShoppingCart';
import { Box, Button, Drawer, IconButton, Paper, TablePagination, TableSortLabel, TextField, Typography, useMediaQuery } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useEffect, useState } from 'react';
import { useGetList } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { PageTitle } from '../layout/PageTitle';
import { useToast } from '../layout/toast';
import { AccessRestricted } from '../orders/AccessRestricted';
import { ApiError } from '../providers/errorMapper';
import { ProductThumb } from '../products/ProductThumb';
import { addToCart, closeCart, openCart, useCart, useCartOpen } from './cart';
import { CartPanel } from './CartPanel';
import { ProductFilters, useProductFilters } from './ProductFilters';
import { StockChip } from './StockChip';
import { useTimedNotice } from '../layout/useTimedNotice';
import { LoadError, Loading } from '../layout/ListStates';

export const EMPTY_CART_MESSAGE = 'Please add items to cart before proceeding to checkout';
export const NO_SHIPPING_MESSAGE = "You don't have permission to access shipment details. Please contact your administrator.";
/** Below this width the cart is a slide-over that opens after an add (spec 002 §9). */
export const WIDE_SCREEN_QUERY = '(min-width:1024px)';
const DESCRIPTION_LIMIT = 100;
const PAGE_SIZE = 10;

type SortField = 'name' | 'moq' | 'stock_quantity' | 'price';
const SORT_LABELS: Record<SortField, string> = { name: 'Name', moq: 'MOQ', stock_quantity: 'Stock', price: 'Price' };

/** Descriptions are cut at 100 characters. */
export const shortDescription = (text: string) => (text.length > DESCRIPTION_LIMIT ? `${text.slice(0, DESCRIPTION_LIMIT).trimEnd()}…` : text);

/** The quantity input and Add to Cart: bounded by the MOQ and the stock, disabled when out of stock. */
function AddToCart({ product, onAdded }: { product: CatalogueProduct; onAdded: (product: CatalogueProduct, quantity: number) => void }) {
  const min = Math.max(product.moq, 1);
  const max = product.stock_quantity;
  const out = max <= 0 || max < min;
  const [value, setValue] = useState(String(min));
  const bounded = (raw: string) => {
    const n = Math.floor(Number(raw));
    return Number.isFinite(n) ? Math.min(Math.max(n, min), Math.max(max, min)) : min;
  };
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'nowrap', justifyContent: 'flex-end' }}>
      <TextField
        size="small"
        type="number"
        value={out ? '' : value}
        disabled={out}
        placeholder={out ? '—' : undefined}
        onChange={(event) => setValue(event.target.value)}
        onBlur={() => setValue(String(bounded(value)))}
        sx={{ width: 84, flex: '0 0 84px' }}
        slotProps={{ htmlInput: { min, max, step: 1, 'aria-label': `Quantity of ${product.name}` } }}
      />
      <Button
        variant="contained"
        size="small"
        startIcon={<AddShoppingCartIcon />}
        disabled={out}
        onClick={() => {
          const quantity = bounded(value);
          setValue(String(quantity));
          onAdded(product, quantity);
        }}
        sx={{ whiteSpace: 'nowrap', flex: '0 0 auto' }}
        aria-label={`Add ${product.name} to cart`}
      >
        Add to Cart
      </Button>
    </Box>
  );
}

/** /catalogue: filters, search, sortable products with quantities, and the cart. */
export default function Catalogue() {
  const { principal, canDo } = useAccess();
  const navigate = useNavigate();
  const toast = useToast();
  const wide = useMediaQuery(WIDE_SCREEN_QUERY);
  const lines = useCart();
  const drawerOpen = useCartOpen();
  const [notice, setNotice] = useTimedNotice(3000);
  // The add-to-cart notice lives in the cart itself, so no toast ever covers the cart.
  const [addedNotice, setAddedNotice] = useTimedNotice(3000);
  const filters = useProductFilters();
  const { query, filter, filtered } = filters;
  const { category, stock, delivery } = filters.values;
  const [sort, setSort] = useState<{ field: SortField; order: 'ASC' | 'DESC' }>({ field: 'name', order: 'ASC' });
  const [page, setPage] = useState(0);
  const mayBrowse = canDo('browse-products');

  useEffect(() => setPage(0), [query, category, stock, delivery, sort]);

  const { data, total, isPending, error, refetch } = useGetList<CatalogueProduct>(
    'products',
    { pagination: { page: page + 1, perPage: PAGE_SIZE }, sort, filter },
    { enabled: mayBrowse },
  );

  if (!mayBrowse) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <PageTitle title="Product Catalogue" />
        <AccessRestricted>You need the Browse products permission (Orders.Browse) to see the catalogue. Please contact your administrator.</AccessRestricted>
      </Box>
    );
  }

  const added = (product: CatalogueProduct, quantity: number) => {
    addToCart(product, quantity);
    setNotice(null);
    setAddedNotice(`${product.name} added to cart`);
    if (!wide) openCart();
  };

  const checkout = () => {
    if (!lines.length) {
      setNotice(EMPTY_CART_MESSAGE);
      toast(EMPTY_CART_MESSAGE, 'warning');
      return;
    }
    if (!principal || !canShip(principal)) {
      setNotice(NO_SHIPPING_MESSAGE);
      toast(NO_SHIPPING_MESSAGE, 'error');
      return;
    }
    closeCart();
    navigate('/order/shipping', { state: { cart: lines } });
  };

  const toggleSort = (field: SortField) => setSort((current) => ({ field, order: current.field === field && current.order === 'ASC' ? 'DESC' : 'ASC' }));
  const sortBar = (
    <Box sx={{ display: 'flex', gap: { xs: 1, sm: 2 }, alignItems: 'center', flexWrap: 'wrap', mb: 1 }} role="group" aria-label="Sort products">
      <Typography variant="body2" color="text.secondary">
        Sort by
      </Typography>
      {(Object.keys(SORT_LABELS) as SortField[]).map((field) => (
        <TableSortLabel
          key={field}
          active={sort.field === field}
          direction={sort.field === field ? (sort.order === 'ASC' ? 'asc' : 'desc') : 'asc'}
          onClick={() => toggleSort(field)}
          sx={{ fontSize: '0.875rem', fontWeight: sort.field === field ? 600 : 400 }}
          data-sort-field={field}
        >
          {SORT_LABELS[field]}
        </TableSortLabel>
      ))}
    </Box>
  );

  const products = data ?? [];

  const list = isPending ? (
    <Loading />
  ) : products.length === 0 ? (
    <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }}>
      <Typography color="text.secondary">{filtered ? 'No products found' : 'No products yet'}</Typography>
    </Paper>
  ) : (
    <Paper variant="outlined" component="ul" aria-label="Products" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {products.map((product, index) => (
        <Box
          component="li"
          key={product.id}
          data-testid="catalogue-row"
          sx={{
            p: 2,
            borderTop: index ? 1 : 0,
            borderColor: 'divider',
            display: 'grid',
            gap: { xs: 1.5, sm: 2 },
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(0, 1fr) auto' },
            alignItems: 'center',
          }}
        >
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', minWidth: 0 }}>
            <ProductThumb src={product.image_url} name={product.name} size={56} />
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="subtitle2" component="h3" sx={{ wordBreak: 'break-word' }}>
                {product.name}
              </Typography>
              <Typography variant="caption" color="primary" component="p">
                {product.category}
              </Typography>
              <Typography variant="body2" color="text.secondary" title={product.description} sx={{ mt: 0.25 }}>
                {shortDescription(product.description)}
              </Typography>
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mt: 0.75 }}>
                <StockChip stock={product.stock_quantity} />
                <Typography variant="caption" color="text.secondary">
                  MOQ {product.moq} · Delivery: {DELIVERY_TIME_LABELS[deliveryTime(product.stock_quantity)]}
                </Typography>
              </Box>
            </Box>
          </Box>
          <Box
            sx={{
              display: 'flex',
              flexDirection: { xs: 'row', sm: 'column' },
              alignItems: { xs: 'center', sm: 'flex-end' },
              justifyContent: 'space-between',
              gap: 1,
              flexWrap: 'wrap',
            }}
          >
            <Typography variant="h6" component="p" sx={{ fontSize: '1.1rem', whiteSpace: 'nowrap' }} data-testid="catalogue-price">
              {formatUsd(product.price)}
            </Typography>
            <AddToCart product={product} onAdded={added} />
          </Box>
        </Box>
      ))}
    </Paper>
  );

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 2 }}>
        <PageTitle title="Product Catalogue" subtitle="Browse network equipment, choose quantities and add them to your cart." />
      </Box>
      <LoadError
        error={error}
        onRetry={refetch}
        message={error instanceof ApiError && error.status !== 0 && error.message !== 'An error occurred' ? error.message : 'Failed to fetch products'}
      />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: wide ? 'minmax(0, 1fr) 300px' : 'minmax(0, 1fr)', alignItems: 'start' }}>
        <Box sx={{ minWidth: 0 }}>
          <ProductFilters
            values={filters.values}
            onChange={filters.change}
            searchSx={{ flex: '1 1 100%' }}
            selectSx={{ flex: { xs: '1 1 100%', sm: '1 1 160px' }, minWidth: 0 }}
          />
          {sortBar}
          {list}
          {total !== undefined && total > PAGE_SIZE ? (
            <TablePagination
              component="div"
              count={total}
              page={page}
              rowsPerPage={PAGE_SIZE}
              rowsPerPageOptions={[PAGE_SIZE]}
              onPageChange={(_, next) => setPage(next)}
            />
          ) : null}
        </Box>
        {wide ? (
          <Paper
            variant="outlined"
            component="aside"
            aria-label="Cart"
            sx={{ p: 2, position: 'sticky', top: 80, maxHeight: 'calc(100vh - 100px)', display: 'flex', flexDirection: 'column' }}
          >
            <CartPanel lines={lines} notice={notice} added={addedNotice} onCheckout={checkout} />
          </Paper>
        ) : null}
      </Box>
      {!wide ? (
        <Drawer anchor="right" open={drawerOpen} onClose={closeCart} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 380 }, p: 2 } } }}>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
            <IconButton aria-label="Close cart" onClick={closeCart}>
              <CloseIcon />
            </IconButton>
          </Box>
          <CartPanel lines={lines} notice={notice} added={addedNotice} onCheckout={checkout} />
        </Drawer>
      ) : null}
    </Box>
  );
}
