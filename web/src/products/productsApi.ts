/** The product calls with their own shapes: the admin's multipart saves and the removal. Lists use react-admin's data provider. */

import { API_URL, httpClient } from '../providers/httpClient';

export interface ProductRecord {
  id: string;
  name: string;
  price: number;
  category: string;
  stock_quantity: number;
  moq: number;
  description: string;
  image: string | null;
  image_url: string | null;
  stock_status: 'in_stock' | 'low_stock' | 'out_of_stock';
  delivery_time: string;
  created_at: string;
  updated_at: string;
}

export interface ProductFormValues {
  name: string;
  price: string;
  category: string;
  stock_quantity: string;
  moq: string;
  description: string;
}

/** Adds (no id) or edits a product: the form's fields and an optional image, as multipart. */
export async function saveProduct(id: string | undefined, values: ProductFormValues, image: File | null): Promise<{ message?: string; data: ProductRecord }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) form.append(name, value.trim());
  if (image) form.append('image', image, image.name);
  const { json } = await httpClient<{ message?: string; data: ProductRecord }>(id ? `${API_URL}/products/${encodeURIComponent(id)}` : `${API_URL}/products`, {
    method: id ? 'PUT' : 'POST',
    body: form,
  });
  return json;
}

export async function deleteProduct(id: string): Promise<{ message?: string }> {
  const { json } = await httpClient<{ message?: string }>(`${API_URL}/products/${encodeURIComponent(id)}`, { method: 'DELETE' });
  return json;
}

export interface BulkDeleteAnswer {
  success: boolean;
  message: string;
  data: { deleted: string[]; unchanged: string[] };
}

/**
 * Removes the given products, all or nothing: when one id is unknown nothing is removed and the
 * error names it. Products already removed count as done.
 */
export async function deleteProducts(ids: string[]): Promise<BulkDeleteAnswer> {
  const { json } = await httpClient<BulkDeleteAnswer>(`${API_URL}/products/bulk-delete`, { method: 'POST', body: { ids } });
  return json;
}
