import { useRef } from 'react';
import { ProductDialog } from './ProductInputs';
import type { ProductView } from '@contracts/products';

/** The Edit Product dialog; closed while `record` is null (it keeps showing the last record while it closes). */
export function ProductEdit({ record, onClose, onSaved }: { record: ProductView | null; onClose: () => void; onSaved: () => void }) {
  const last = useRef<ProductView | null>(record);
  if (record) last.current = record;
  return <ProductDialog open={Boolean(record)} record={last.current} onClose={onClose} onSaved={onSaved} />;
}
