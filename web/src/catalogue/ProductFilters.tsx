import { DELIVERY_TIME_FILTERS, PRODUCT_CATEGORIES, STOCK_STATUS_LABELS, type DeliveryTime, type StockStatus } from '@domain/products/products';
import { Box, type SxProps, type Theme } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useDebounced } from '../layout/useDebounced';
import { SearchField, SelectFilter, type FilterChoice } from '../lists';

export interface ProductFilterValues {
  search: string;
  category: string;
  stock: StockStatus | '';
  delivery: DeliveryTime | '';
}

const NO_FILTERS: ProductFilterValues = { search: '', category: '', stock: '', delivery: '' };
const STOCK_CHOICES = (Object.keys(STOCK_STATUS_LABELS) as StockStatus[]).map((value) => ({ value, label: STOCK_STATUS_LABELS[value] }));
const DELIVERY_CHOICES = (Object.keys(DELIVERY_TIME_FILTERS) as DeliveryTime[]).map((value) => ({ value, label: DELIVERY_TIME_FILTERS[value] }));
// Each choice list holds only values of its own field, so a choice written back is of the field's type.
const SELECTS: Array<{ key: 'category' | 'stock' | 'delivery'; label: string; allLabel: string; choices: readonly FilterChoice[] }> = [
  { key: 'category', label: 'Category', allLabel: 'All Categories', choices: PRODUCT_CATEGORIES },
  { key: 'stock', label: 'Stock', allLabel: 'All', choices: STOCK_CHOICES },
  { key: 'delivery', label: 'Delivery time', allLabel: 'All', choices: DELIVERY_CHOICES },
];

/**
 * The filters of a product list (search, category, stock level, delivery time) and the products
 * resource's filter they make; the search reaches the filter after a pause in typing.
 */
export function useProductFilters() {
  const [values, setValues] = useState<ProductFilterValues>(NO_FILTERS);
  const query = useDebounced(values.search.trim(), 300);
  const { category, stock, delivery } = values;
  const filter: Record<string, string> = {};
  if (query) filter.q = query;
  if (category) filter.category = category;
  if (stock) filter.stock = stock;
  if (delivery) filter.delivery = delivery;
  const change = (patch: Partial<ProductFilterValues>) => setValues((current) => ({ ...current, ...patch }));
  return { values, change, query, filter, filtered: Boolean(query || category || stock || delivery) };
}

/** The search box and the three drop-downs above a product list; `children` follow them on the same line. */
export function ProductFilters({
  values,
  onChange,
  searchSx,
  selectSx,
  children,
}: {
  values: ProductFilterValues;
  onChange: (patch: Partial<ProductFilterValues>) => void;
  searchSx: SxProps<Theme>;
  selectSx: SxProps<Theme>;
  children?: ReactNode;
}) {
  return (
    <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 2 }}>
      <SearchField placeholder="Search products" inputLabel="Search products" value={values.search} onChange={(search) => onChange({ search })} sx={searchSx} />
      {SELECTS.map(({ key, label, allLabel, choices }) => (
        <SelectFilter
          key={key}
          label={label}
          allLabel={allLabel}
          choices={choices}
          value={values[key]}
          onChange={(value) => onChange({ [key]: value } as Partial<ProductFilterValues>)}
          sx={selectSx}
        />
      ))}
      {children}
    </Box>
  );
}
