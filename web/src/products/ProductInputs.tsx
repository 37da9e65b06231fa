import { PRODUCT_CATEGORIES, PRODUCT_MESSAGES, productProblems } from '@domain/products/products';
import { parsePriceCents } from '@domain/money';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { useToast } from '../layout/toast';
import { ApiError } from '../providers/errorMapper';
import { ProductThumb } from './ProductThumb';
import type { ProductFormValues, ProductView } from '@contracts/products';
import { saveProduct } from './productsApi';

export const IMAGE_HINT = 'PNG, JPG, SVG up to 10MB';
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

const EMPTY: ProductFormValues = { name: '', price: '', category: '', stock_quantity: '', moq: '1', description: '' };

const valuesOf = (record: ProductView | null): ProductFormValues =>
  record
    ? {
        name: record.name,
        price: record.price.toFixed(2),
        category: record.category,
        stock_quantity: String(record.stock_quantity),
        moq: String(record.moq),
        description: record.description,
      }
    : EMPTY;

type Errors = Partial<Record<keyof ProductFormValues | 'image', string>>;

/** The product form's rules (spec 002 §5), with the server's messages. */
export function productFormErrors(values: ProductFormValues): Errors {
  const errors: Errors = {};
  if (!values.price.trim()) errors.price = PRODUCT_MESSAGES.priceRequired;
  const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text) : Number.NaN);
  for (const problem of productProblems({
    name: values.name,
    priceCents: parsePriceCents(values.price) ?? -1,
    category: values.category,
    stockQuantity: whole(values.stock_quantity),
    moq: whole(values.moq),
    description: values.description,
  })) {
    const field = problem.field as keyof ProductFormValues;
    errors[field] ??= problem.message;
  }
  if (!values.stock_quantity.trim()) errors.stock_quantity = PRODUCT_MESSAGES.stockRequired;
  if (!values.moq.trim()) errors.moq = PRODUCT_MESSAGES.moqRequired;
  return errors;
}

/** The Add Product and Edit Product dialog, with the optional image upload. */
export function ProductDialog({ open, record, onClose, onSaved }: { open: boolean; record: ProductView | null; onClose: () => void; onSaved: () => void }) {
  const toast = useToast();
  const fullScreen = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const [values, setValues] = useState<ProductFormValues>(valuesOf(record));
  const [image, setImage] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const preview = useMemo(() => (image ? URL.createObjectURL(image) : null), [image]);

  useEffect(() => {
    if (!open) return;
    setValues(valuesOf(record));
    setImage(null);
    setErrors({});
    setFailure(null);
  }, [open, record]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const set = (name: keyof ProductFormValues, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  const pickImage = (file: File | undefined) => {
    setErrors((e) => ({ ...e, image: undefined }));
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setErrors((e) => ({ ...e, image: 'Choose an image file (PNG, JPG or SVG).' }));
      return;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      setErrors((e) => ({ ...e, image: 'The image must be at most 10MB.' }));
      return;
    }
    setImage(file);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found = productFormErrors(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setSaving(true);
    setFailure(null);
    try {
      await saveProduct(record?.id, values, image);
      toast(record ? 'Product updated successfully!' : 'Product added successfully!', 'success');
      onSaved();
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status !== 0) {
        setErrors(error.fieldErrors as Errors);
        const message = error.message !== 'An error occurred' ? error.message : 'Failed to save product';
        setFailure(message);
        toast(message, 'error');
      } else {
        setFailure('An error occurred while saving the product');
        toast('An error occurred while saving the product', 'error');
      }
    } finally {
      setSaving(false);
    }
  };

  const field = (name: keyof ProductFormValues) => ({
    name,
    value: values[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => set(name, event.target.value),
    error: Boolean(errors[name]),
    helperText: errors[name],
    required: true,
    fullWidth: true,
  });
  const current = preview ?? record?.image_url ?? null;

  return (
    <Dialog open={open} onClose={() => !saving && onClose()} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="product-dialog-title">
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id="product-dialog-title">{record ? 'Edit Product' : 'Add Product'}</DialogTitle>
        <DialogContent dividers>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
            <TextField label="Product Name" {...field('name')} sx={{ gridColumn: { sm: '1 / -1' } }} slotProps={{ htmlInput: { maxLength: 200 } }} />
            <TextField label="Price (USD)" type="number" {...field('price')} slotProps={{ htmlInput: { min: 0, step: 0.01 } }} />
            <TextField select label="Category" {...field('category')}>
              {PRODUCT_CATEGORIES.map((category) => (
                <MenuItem key={category} value={category}>
                  {category}
                </MenuItem>
              ))}
            </TextField>
            <TextField label="Stock Quantity" type="number" {...field('stock_quantity')} slotProps={{ htmlInput: { min: 0, step: 1 } }} />
            <TextField label="MOQ" type="number" {...field('moq')} slotProps={{ htmlInput: { min: 1, step: 1 } }} />
            <TextField
              label="Description"
              multiline
              minRows={3}
              {...field('description')}
              sx={{ gridColumn: { sm: '1 / -1' } }}
              slotProps={{ htmlInput: { maxLength: 5000 } }}
            />
            <Box sx={{ gridColumn: { sm: '1 / -1' }, display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
              <ProductThumb src={current} name={values.name || 'New product'} size={64} />
              <Box sx={{ minWidth: 0 }}>
                <Button component="label" variant="outlined" startIcon={<CloudUploadIcon />}>
                  {current ? 'Change Image' : 'Upload Image'}
                  <input
                    hidden
                    type="file"
                    accept="image/png,image/jpeg,image/svg+xml,image/gif,image/webp"
                    onChange={(event) => pickImage(event.target.files?.[0])}
                    aria-label="Product image"
                  />
                </Button>
                <Typography variant="caption" color={errors.image ? 'error' : 'text.secondary'} component="p" sx={{ mt: 0.5 }}>
                  {errors.image ?? (image ? image.name : IMAGE_HINT)}
                </Typography>
              </Box>
            </Box>
          </Box>
          {failure ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {failure}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {saving ? 'Saving...' : record ? 'Update Product' : 'Add Product'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
