import { useRef } from 'react';
import { ProductDialog } from './ProductInputs';
import type { ProductRecord } from './productsApi';

/** The Edit Product dialog; closed while `record` is null (it keeps showing the last record while it closes). */
export function ProductEdit({ record, onClose, onSaved }: { record: ProductRecord | null; onClose: () => void; onSaved: () => void }) {
  const last = useRef<ProductRecord | null>(record);
  if (record) last.current = record;
  return <ProductDialog open={Boolean(record)} record={last.current} onClose={onClose} onSaved={onSaved} />;
}
