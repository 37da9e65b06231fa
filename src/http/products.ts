import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DELIVERY_TIME_LABELS,
  parsePriceCents,
  PRODUCT_CATEGORIES,
  PRODUCT_MESSAGES,
  products,
  type DeliveryTime,
  type ProductCategory,
} from '../../domain/catalogue/catalogue';
import { findProduct, listProducts, toProductView } from '../../projections/catalogue';
import { metadataFromRequest, runCommand } from '../commands/dispatch';
import { HttpError } from '../plugins/errors';
import { IMAGE_TYPES, readMultipart, removeUpload, storeUpload, type FileRule } from '../plugins/uploads';
import type { Services } from '../services';
import { listQuerySchema, sendList } from './lists';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { uuidParam } from './validation';
import { bulkIds, recordAnswer } from './records';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';
import { DomainError } from '../../domain/decider';

const IMAGE_RULE: FileRule = { label: 'Product image', types: IMAGE_TYPES, maxBytes: 10 * 1024 * 1024, maxCount: 1 };

const requiredText = (required: string) => z.string({ error: required }).trim().min(1, required);
const wholeNumber = (required: string, invalid: string, min: number) =>
  requiredText(required)
    .regex(/^\d{1,8}$/, invalid)
    .transform(Number)
    .refine((n) => n >= min, invalid);

/** The product form's fields as multipart text (spec 002 §5). */
const productFields = z
  .object({
    name: requiredText(PRODUCT_MESSAGES.nameRequired).max(200, PRODUCT_MESSAGES.nameTooLong),
    price: requiredText(PRODUCT_MESSAGES.priceRequired).transform((text, ctx) => {
      const cents = parsePriceCents(text);
      if (cents === undefined) {
        ctx.addIssue({ code: 'custom', message: PRODUCT_MESSAGES.priceInvalid });
        return z.NEVER;
      }
      return cents;
    }),
    category: z.enum(PRODUCT_CATEGORIES, { error: (i) => (i.input === undefined || i.input === '' ? PRODUCT_MESSAGES.categoryRequired : PRODUCT_MESSAGES.categoryInvalid) }),
    stock_quantity: wholeNumber(PRODUCT_MESSAGES.stockRequired, PRODUCT_MESSAGES.stockInvalid, 0),
    moq: wholeNumber(PRODUCT_MESSAGES.moqRequired, PRODUCT_MESSAGES.moqInvalid, 1),
    description: requiredText(PRODUCT_MESSAGES.descriptionRequired).max(5000, PRODUCT_MESSAGES.descriptionTooLong),
    id: z.string().optional(),
  })
  .strict();

const STOCK_FILTERS = ['in_stock', 'low_stock', 'out_of_stock'] as const;
const DELIVERY_FILTERS = Object.keys(DELIVERY_TIME_LABELS) as [DeliveryTime, ...DeliveryTime[]];

const listQuery = listQuerySchema(
  {
    category: z.enum(PRODUCT_CATEGORIES).optional(),
    stock: z.enum(STOCK_FILTERS).optional(),
    delivery: z.enum(DELIVERY_FILTERS).optional(),
  },
  ['name', 'moq', 'stock_quantity', 'price', 'created_at', 'category'],
);

/** POST /products/bulk-delete: remove up to 100 products at once. */
const bulkDeleteBody = z
  .object({
    ids: bulkIds('product'),
  })
  .strict()
  .meta({ example: { ids: ['3f2a9c1e-4f5a-4b6c-9d7e-0a1b2c3d4e5f'] } });

/** Reads the multipart form: its fields checked like a JSON body (unknown fields refused), and at most one image. */
async function readProductForm(request: Parameters<typeof readMultipart>[0]) {
  const form = await readMultipart(request, { image: IMAGE_RULE });
  const single: Record<string, string> = {};
  for (const [name, value] of Object.entries(form.fields)) {
    if (Array.isArray(value)) throw new HttpError(400, 'VALIDATION_ERROR', `Send ${name} once.`, [{ field: name, message: `Send ${name} once.` }]);
    single[name] = value;
  }
  const parsed = productFields.safeParse(single);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      field: issue.code === 'unrecognized_keys' ? issue.keys.join(',') : String(issue.path[0] ?? 'request'),
      message: issue.message,
    }));
    throw new HttpError(400, 'VALIDATION_ERROR', details[0].message, details);
  }
  return { fields: parsed.data, image: form.files.image?.[0] };
}

export async function productRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, config } = services;
  const load = async (id: string) => {
    const row = await findProduct(pool, id);
    if (!row) throw new HttpError(404, 'NOT_FOUND', PRODUCT_MESSAGES.notFound);
    return row;
  };

  app.get(
    '/products',
    { schema: { tags: ['products'], summary: 'The catalogue: filter by category, stock level or delivery time; search; sort', querystring: listQuery } },
    async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listProducts(
        pool,
        { category: q.filters.category, stock: q.filters.stock, delivery: q.filters.delivery, search: q.search, ids: q.ids },
        { offset: q.offset, limit: q.limit, sort: q.sort },
      );
      const data = rows.map(toProductView);
      if (q.reactAdmin) return sendList(reply, 'products', q, data, total);
      // The specification reads a `data` array.
      return { success: true, data, total, page: q.page, limit: q.limit, totalPages: Math.max(1, Math.ceil(total / q.limit)) };
    },
  );

  app.get('/products/:id', { schema: { tags: ['products'], summary: 'One product (with asOf: as it was at that moment)', params: uuidParam, querystring: asOfQuery } }, async (request) => {
    const product = await load(request.params.id);
    if (request.query.asOf) return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.products, product.id, request.query.asOf, request.principal, PRODUCT_MESSAGES.notFound));
    return { success: true, data: toProductView(product) };
  });

  versionsRoute(app, services, { path: '/products', type: VERSIONED_RECORDS.products, params: uuidParam, notFound: PRODUCT_MESSAGES.notFound, visible: async (_request, id) => (await load(id)).id });

  app.post(
    '/products',
    { schema: { tags: ['products'], summary: 'Add a product (multipart: name, price, category, stock_quantity, moq, description, optional image)', consumes: ['multipart/form-data'] } },
    async (request, reply) => {
      const { fields, image } = await readProductForm(request);
      const productId = newRecordId(request, 'product');
      const created = { id: productId, location: `/api/products/${productId}` };
      const read = async () => ({ success: true, message: 'Product added successfully!', data: toProductView(await load(productId)) });
      const earlier = await earlierCreation(services, request, products.streamId(productId), productId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      const stored = image ? await storeUpload(config.UPLOAD_DIR, image, 'public') : null;
      try {
        await runCommand(
          services,
          products,
          productId,
          {
            type: 'AddProduct',
            productId,
            name: fields.name,
            priceCents: fields.price,
            category: fields.category as ProductCategory,
            stockQuantity: fields.stock_quantity,
            moq: fields.moq,
            description: fields.description,
            image: stored,
          },
          metadataFromRequest(request),
        );
      } catch (error) {
        if (stored) await removeUpload(config.UPLOAD_DIR, stored, 'public');
        throw error;
      }
      return answerCreated(services, reply, created, read);
    },
  );

  app.put(
    '/products/:id',
    { schema: { tags: ['products'], summary: 'Edit a product (multipart; a new image replaces the current one)', params: uuidParam, consumes: ['multipart/form-data'] } },
    async (request) => {
      const { fields, image } = await readProductForm(request);
      if (fields.id && fields.id !== request.params.id) throw new HttpError(400, 'VALIDATION_ERROR', 'The id in the body does not match the address.');
      await load(request.params.id);
      const stored = image ? await storeUpload(config.UPLOAD_DIR, image, 'public') : null;
      try {
        await runCommand(
          services,
          products,
          request.params.id,
          {
            type: 'UpdateProduct',
            name: fields.name,
            priceCents: fields.price,
            category: fields.category as ProductCategory,
            stockQuantity: fields.stock_quantity,
            moq: fields.moq,
            description: fields.description,
            ...(stored ? { image: stored } : {}),
          },
          metadataFromRequest(request),
        );
      } catch (error) {
        if (stored) await removeUpload(config.UPLOAD_DIR, stored, 'public');
        throw error;
      }
      return { success: true, message: 'Product updated successfully!', data: toProductView(await load(request.params.id)) };
    },
  );

  app.delete('/products/:id', { schema: { tags: ['products'], summary: 'Remove a product from the catalogue', params: uuidParam } }, async (request) => {
    const current = await load(request.params.id);
    await runCommand(services, products, current.id, { type: 'RemoveProduct' }, metadataFromRequest(request));
    return { success: true, message: 'Product deleted successfully!', data: { id: current.id } };
  });

  /**
   * All or nothing: every id is checked before any product is removed, and one unknown id refuses
   * the whole request, naming each such row (`error.rows`). A product removed earlier (an
   * interrupted request retried, or someone else's delete) counts as done, so a retry finishes
   * the job instead of failing on the rows the first attempt already removed.
   */
  app.post('/products/bulk-delete', { schema: { tags: ['products'], summary: 'Remove several products from the catalogue (admins)', body: bulkDeleteBody } }, async (request) => {
    const { ids } = request.body;
    const found = await Promise.all(ids.map((id) => findProduct(pool, id)));
    const removedEarlier = async (id: string) => (await services.store.readStream(products.streamId(id))).some((event) => event.type === 'ProductRemoved.v1');
    const missing = await Promise.all(ids.map(async (id, index) => (found[index] || (await removedEarlier(id)) ? null : id)));
    const refused = missing.filter((id): id is string => id !== null).map((id) => ({ id, message: 'Product not found.' }));
    if (refused.length) {
      const message = refused.length === 1 ? 'No product was deleted: Product not found.' : `No product was deleted: ${refused.length} of the chosen products were not found.`;
      throw new HttpError(404, 'NOT_FOUND', message, refused.map((row) => ({ field: `ids.${ids.indexOf(row.id)}`, message: row.message })), { rows: refused });
    }
    const metadata = metadataFromRequest(request);
    const deleted: string[] = [];
    for (const [index, id] of ids.entries()) {
      if (!found[index]) continue;
      try {
        await runCommand(services, products, id, { type: 'RemoveProduct' }, metadata);
        deleted.push(id);
      } catch (error) {
        // Removed by someone else since the check: the product is gone, as asked.
        if (!(error instanceof DomainError && error.code === 'NOT_FOUND')) throw error;
      }
    }
    const count = deleted.length;
    return {
      success: true,
      message: count === 0 ? 'No product deleted: the chosen products were already deleted.' : `${count} product${count === 1 ? '' : 's'} deleted.`,
      data: { deleted, unchanged: ids.filter((id) => !deleted.includes(id)) },
    };
  });
}
