import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DELIVERY_TIME_LABELS, PRODUCT_CATEGORIES, PRODUCT_MESSAGES, products, type DeliveryTime, type ProductCategory } from '../../domain/products/products';
import {
  productBulkDeleteAnswer,
  productCreatedAnswers,
  productDeletedAnswer,
  productFormFields,
  productListAnswer,
  productReadAnswer,
  productSavedAnswer,
  STOCK_STATUSES,
  type CatalogueProduct,
  type ProductView,
} from '../../contracts/products';
import { findProduct, listProducts, toProductView } from '../../projections/products';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { HttpError } from '../plugins/errors';
import { IMAGE_TYPES, readMultipart, type FileRule } from '../plugins/uploads';
import { removeUpload, storeUpload } from '../../platform/uploadStorage';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { uuidParam } from './validation';
import { bulkIds, recordAnswer } from './records';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';
import { DomainError } from '../../domain/decider';
import { seesAllOrganisations } from '../../domain/access/roles';
import { discountedPriceCents } from '../../domain/orders/orders';
import { tierInForceAt } from '../../projections/programme';
import type { FastifyRequest } from 'fastify';

const IMAGE_RULE: FileRule = { label: 'Product image', types: IMAGE_TYPES, maxBytes: 10 * 1024 * 1024, maxCount: 1 };

const DELIVERY_FILTERS = Object.keys(DELIVERY_TIME_LABELS) as [DeliveryTime, ...DeliveryTime[]];

const listQuery = listQuerySchema(
  {
    category: z.enum(PRODUCT_CATEGORIES).optional(),
    stock: z.enum(STOCK_STATUSES).optional(),
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
  const parsed = productFormFields.safeParse(single);
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
  const { pool, reads, config } = services;
  const load = async (id: string, db: Queryable = pool) => {
    const row = await findProduct(db, id);
    if (!row) throw new HttpError(404, 'NOT_FOUND', PRODUCT_MESSAGES.notFound);
    return row;
  };

  /**
   * The caller's organisation's catalogue discount (its programme tier in force now), the one an order
   * placed now carries; null for staff and for an organisation without a tier or a discount.
   */
  const callerDiscount = async (request: FastifyRequest, db: Queryable) => {
    const { principal } = request;
    if (seesAllOrganisations(principal.role) || !principal.organisationId) return null;
    const tier = await tierInForceAt(db, principal.organisationId, new Date());
    const percent = tier?.benefits.catalogue_discount_percent ?? 0;
    return tier && percent > 0 ? { percent, tier: tier.name } : null;
  };
  // Present only when a discount applies, so the catalogue's answer is unchanged for everyone else.
  const withDiscount =
    (discount: { percent: number; tier: string } | null) =>
    (view: ProductView): CatalogueProduct =>
      discount
        ? {
            ...view,
            your_price: discountedPriceCents(Math.round(view.price * 100), discount.percent) / 100,
            discount_percent: discount.percent,
            discount_tier: discount.tier,
          }
        : view;

  app.get(
    '/products',
    {
      schema: {
        tags: ['products'],
        summary: 'The catalogue: filter by category, stock level or delivery time; search; sort',
        querystring: listQuery,
        response: { 200: productListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listProducts(
        reads,
        { category: q.filters.category, stock: q.filters.stock, delivery: q.filters.delivery, search: q.search, ids: q.ids },
        { offset: q.offset, limit: q.limit, sort: q.sort },
      );
      const data = rows.map(toProductView).map(withDiscount(await callerDiscount(request, reads)));
      // For react-admin sendList answers the bare array (the other list envelope is not this route's).
      if (q.reactAdmin) return sendList(reply, 'products', q, data, total) as CatalogueProduct[];
      // The specification reads a `data` array.
      return { success: true as const, data, total, page: q.page, limit: q.limit, totalPages: Math.max(1, Math.ceil(total / q.limit)) };
    },
  );

  app.get(
    '/products/:id',
    {
      schema: {
        tags: ['products'],
        summary: 'One product (with asOf: as it was at that moment)',
        params: uuidParam,
        querystring: asOfQuery,
        response: { 200: productReadAnswer },
      },
    },
    async (request) => {
      const product = await load(request.params.id, reads);
      if (request.query.asOf)
        return recordAnswer(
          await asOfAnswer(services, VERSIONED_RECORDS.products, product.id, request.query.asOf, request.principal, PRODUCT_MESSAGES.notFound),
        );
      return { success: true as const, data: withDiscount(await callerDiscount(request, reads))(toProductView(product)) };
    },
  );

  versionsRoute(app, services, {
    path: '/products',
    type: VERSIONED_RECORDS.products,
    params: uuidParam,
    notFound: PRODUCT_MESSAGES.notFound,
    visible: async (_request, id) => (await load(id, reads)).id,
  });

  app.post(
    '/products',
    {
      schema: {
        tags: ['products'],
        summary: 'Add a product (multipart: name, price, category, stock_quantity, moq, description, optional image)',
        consumes: ['multipart/form-data'],
        response: productCreatedAnswers,
      },
    },
    async (request, reply) => {
      const { fields, image } = await readProductForm(request);
      const productId = newRecordId(request, 'product');
      const created = { id: productId, location: `/api/products/${productId}` };
      const read = async () => ({ success: true as const, message: 'Product added successfully!', data: toProductView(await load(productId)) });
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
    {
      schema: {
        tags: ['products'],
        summary: 'Edit a product (multipart; a new image replaces the current one)',
        params: uuidParam,
        consumes: ['multipart/form-data'],
        response: { 200: productSavedAnswer },
      },
    },
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
      return { success: true as const, message: 'Product updated successfully!', data: toProductView(await load(request.params.id)) };
    },
  );

  app.delete(
    '/products/:id',
    { schema: { tags: ['products'], summary: 'Remove a product from the catalogue', params: uuidParam, response: { 200: productDeletedAnswer } } },
    async (request) => {
      const current = await load(request.params.id);
      await runCommand(services, products, current.id, { type: 'RemoveProduct' }, metadataFromRequest(request));
      return { success: true as const, message: 'Product deleted successfully!', data: { id: current.id } };
    },
  );

  /**
   * All or nothing: every id is checked before any product is removed, and one unknown id refuses
   * the whole request, naming each such row (`error.rows`). A product removed earlier (an
   * interrupted request retried, or someone else's delete) counts as done, so a retry finishes
   * the job instead of failing on the rows the first attempt already removed.
   */
  app.post(
    '/products/bulk-delete',
    {
      schema: {
        tags: ['products'],
        summary: 'Remove several products from the catalogue (admins)',
        body: bulkDeleteBody,
        response: { 200: productBulkDeleteAnswer },
      },
    },
    async (request) => {
      const { ids } = request.body;
      const found = await Promise.all(ids.map((id) => findProduct(pool, id)));
      const removedEarlier = async (id: string) => (await services.store.readStream(products.streamId(id))).some((event) => event.type === 'ProductRemoved.v1');
      const missing = await Promise.all(ids.map(async (id, index) => (found[index] || (await removedEarlier(id)) ? null : id)));
      const refused = missing.filter((id): id is string => id !== null).map((id) => ({ id, message: 'Product not found.' }));
      if (refused.length) {
        const message =
          refused.length === 1
            ? 'No product was deleted: Product not found.'
            : `No product was deleted: ${refused.length} of the chosen products were not found.`;
        throw new HttpError(
          404,
          'NOT_FOUND',
          message,
          refused.map((row) => ({ field: `ids.${ids.indexOf(row.id)}`, message: row.message })),
          { rows: refused },
        );
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
        success: true as const,
        message: count === 0 ? 'No product deleted: the chosen products were already deleted.' : `${count} product${count === 1 ? '' : 's'} deleted.`,
        data: { deleted, unchanged: ids.filter((id) => !deleted.includes(id)) },
      };
    },
  );
}
