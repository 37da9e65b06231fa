import { ProductDialog } from './ProductInputs';

/** The Add Product dialog. */
export function ProductCreate({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  return <ProductDialog open={open} record={null} onClose={onClose} onSaved={onCreated} />;
}
