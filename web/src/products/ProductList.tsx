import { PRODUCT_CATEGORIES } from '@domain/products/products';
import { formatUsd } from '@domain/money';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { StockChip } from '../catalogue/StockChip';
import { ActionDialog } from '../layout/ActionDialog';
import { useToast } from '../layout/toast';
import { answerMessageOf } from '../providers/errorMapper';
import { ProductCreate } from './ProductCreate';
import { ProductEdit } from './ProductEdit';
import HistoryIcon from '@mui/icons-material/History';
import { HistoryDrawer } from '../history';
import { ProductThumb } from './ProductThumb';
import type { ProductView } from '@contracts/products';
import { deleteProduct, deleteProducts } from './productsApi';
import {
  alphabetical,
  DateText,
  FilteredListTable,
  FilteredListToolbar,
  NEWEST_FIRST,
  RowAction,
  RowActions,
  SelectRowBox,
  useDeleteDialog,
  useDialogAction,
  useFilteredList,
  type CsvColumn,
  type ListFilter,
  type ListSortChoice,
  type RecordColumn,
} from '../lists';

export const deleteProductConfirmation = (name: string) => `Are you sure you want to delete product ${name}? This action cannot be undone.`;
export const deleteProductsConfirmation = (count: number) =>
  `Are you sure you want to delete ${count} product${count === 1 ? '' : 's'}? This action cannot be undone.`;

const FILTERS: ListFilter<'category' | 'stock'>[] = [
  {
    field: 'category',
    label: 'Category',
    choices: [{ value: '', label: 'All Categories' }, ...PRODUCT_CATEGORIES],
    sx: { flex: { xs: '1 1 160px', sm: '0 1 240px' } },
  },
  {
    field: 'stock',
    label: 'Stock',
    choices: [
      { value: '', label: 'Any stock' },
      { value: 'in_stock', label: 'In stock' },
      { value: 'low_stock', label: 'Low stock' },
      { value: 'out_of_stock', label: 'Out of stock' },
    ],
    sx: { flex: { xs: '1 1 130px', sm: '0 0 150px' } },
  },
];

const SORT_CHOICES: ListSortChoice[] = [
  NEWEST_FIRST,
  alphabetical('name', 'Name'),
  { field: 'price', order: 'ASC', label: 'Price, lowest first' },
  { field: 'price', order: 'DESC', label: 'Price, highest first' },
  { field: 'stock_quantity', order: 'ASC', label: 'Stock, lowest first' },
];

const CSV_COLUMNS: CsvColumn<ProductView>[] = [
  { label: 'Product', value: (p) => p.name },
  { label: 'Category', value: (p) => p.category },
  { label: 'Price (USD)', value: (p) => p.price },
  { label: 'Stock', value: (p) => p.stock_quantity },
  { label: 'Stock status', value: (p) => p.stock_status },
  { label: 'MOQ', value: (p) => p.moq },
  { label: 'Delivery time', value: (p) => p.delivery_time },
  { label: 'Created', value: (p) => p.created_at },
];

const columns = (actions: (product: ProductView) => ReactNode): RecordColumn<ProductView>[] => [
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
  const list = useFilteredList<ProductView, 'category' | 'stock'>('products', { sort: { field: 'created_at', order: 'DESC' }, fields: ['category', 'stock'] });
  const { error, refetch, selection } = list;
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<ProductView | null>(null);
  const [history, setHistory] = useState<ProductView | null>(null);
  const [bulkDeleting, setBulkDeleting] = useState(false);
  const create = { label: 'Add Product', onClick: () => setAdding(true) };
  const deletion = useDeleteDialog<ProductView>({
    titleId: 'delete-product-title',
    title: 'Delete Product',
    confirmation: (product) => deleteProductConfirmation(product.name),
    failure: (e) => answerMessageOf(e, 'Failed to delete product', 'An error occurred while deleting the product'),
    remove: (product) => deleteProduct(product.id),
    deleted: () => 'Product deleted successfully!',
    onDeleted: () => void refetch(),
  });
  // All or nothing: the server removed nothing and says which rows stopped it.
  const bulkDeletion = useDialogAction('Failed to delete the products', (message) => toast(message, 'error'));
  const busy = deletion.busy || bulkDeletion.busy;

  const confirmBulkDelete = async () => {
    await bulkDeletion.run(
      () => deleteProducts(selection.ids),
      (answer) => {
        toast(answer.message, 'success');
        selection.clear();
        setBulkDeleting(false);
      },
    );
    void refetch();
  };

  const bulkActions = (
    <Button size="small" variant="outlined" color="error" startIcon={<DeleteIcon />} disabled={busy} onClick={() => setBulkDeleting(true)}>
      Delete
    </Button>
  );

  const actions = (product: ProductView) => (
    <RowActions>
      <RowAction title="History" label={`History of ${product.name}`} icon={<HistoryIcon fontSize="small" />} onClick={() => setHistory(product)} />
      <RowAction title="Edit" label={`Edit ${product.name}`} icon={<EditIcon fontSize="small" />} onClick={() => setEditing(product)} />
      <RowAction title="Delete" label={`Delete ${product.name}`} icon={<DeleteIcon fontSize="small" />} onClick={() => deletion.ask(product)} color="error" />
    </RowActions>
  );

  return (
    <Box>
      <FilteredListToolbar
        list={list}
        search={{ placeholder: 'Search products' }}
        filters={FILTERS}
        sortChoices={SORT_CHOICES}
        exportCsv={{ resource: 'products', fileName: 'products', columns: CSV_COLUMNS }}
        create={create}
        bulkActions={bulkActions}
      />

      <FilteredListTable
        list={list}
        loadErrorMessage={answerMessageOf(error, 'Failed to fetch products', 'An error occurred while fetching products')}
        noneFound={{ title: 'No products found', message: 'Try another search, category or stock level.' }}
        noneYet={{ title: 'No products yet', message: 'Add the first product to the catalogue.' }}
        create={create}
        label="Products"
        rowId={(product) => product.id}
        columns={columns(actions)}
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
      />

      <ProductCreate open={adding} onClose={() => setAdding(false)} onCreated={() => void refetch()} />
      <ProductEdit record={editing} onClose={() => setEditing(null)} onSaved={() => void refetch()} />
      <HistoryDrawer path="/products" record={history ? { id: history.id, name: history.name } : null} onClose={() => setHistory(null)} />

      <ActionDialog
        open={bulkDeleting}
        titleId="delete-products-title"
        title="Delete Products"
        message={deleteProductsConfirmation(selection.count)}
        busy={busy}
        onClose={() => setBulkDeleting(false)}
        onConfirm={confirmBulkDelete}
        confirmLabel="Delete"
        busyLabel="Deleting..."
      />

      {deletion.dialog}
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
