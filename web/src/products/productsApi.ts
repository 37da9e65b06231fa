/** The product calls with their own shapes: the admin's multipart saves and the removal. Lists use react-admin's data provider. */

import type { ProductBulkDeleteAnswer, ProductDeletedAnswer, ProductFormValues, ProductSavedAnswer } from '@contracts/products';
import { API_URL, httpClient } from '../providers/httpClient';

/** Adds (no id) or edits a product: the form's fields and an optional image, as multipart. */
export async function saveProduct(id: string | undefined, values: ProductFormValues, image: File | null): Promise<ProductSavedAnswer> {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) form.append(name, value.trim());
  if (image) form.append('image', image, image.name);
  const { json } = await httpClient<ProductSavedAnswer>(id ? `${API_URL}/products/${encodeURIComponent(id)}` : `${API_URL}/products`, {
    method: id ? 'PUT' : 'POST',
    body: form,
  });
  return json;
}

export async function deleteProduct(id: string): Promise<ProductDeletedAnswer> {
  const { json } = await httpClient<ProductDeletedAnswer>(`${API_URL}/products/${encodeURIComponent(id)}`, { method: 'DELETE' });
  return json;
}

/**
 * Removes the given products, all or nothing: when one id is unknown nothing is removed and the
 * error names it. Products already removed count as done.
 */
export async function deleteProducts(ids: string[]): Promise<ProductBulkDeleteAnswer> {
  const { json } = await httpClient<ProductBulkDeleteAnswer>(`${API_URL}/products/bulk-delete`, { method: 'POST', body: { ids } });
  return json;
}
