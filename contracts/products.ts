import { z } from 'zod';
import { DELIVERY_TIME_LABELS, PRODUCT_CATEGORIES, PRODUCT_MESSAGES } from '../domain/products/products';
import { parsePriceCents } from '../domain/money';
import { acceptedAnswer, asOfRecordAnswer, commandAnswer } from './answers';

/**
 * The catalogue: the products partners order, with their price, minimum order quantity and stock
 * (spec 002 §3, §5). Admins add, edit and remove products; everyone signed in reads the catalogue.
 *
 * Routes (all under /api):
 * - GET    /products                 the catalogue (filters category, stock, delivery; search; sort) — `productListAnswer`
 * - GET    /products/:id             one product (with `asOf`: as it was then) — `productReadAnswer`
 * - GET    /products/:id/versions    the product's versions (the project's `/versions` answer)
 * - POST   /products                 admins, multipart `productFormFields` (+ optional `image`) → 201 `productCreatedAnswers`
 * - PUT    /products/:id             admins, multipart `productFormFields` (+ optional `image`) → `productSavedAnswer`
 * - DELETE /products/:id             admins → `productDeletedAnswer`
 * - POST   /products/bulk-delete     admins, `{ ids }` → `productBulkDeleteAnswer`
 * Prices are dollars as JSON numbers; moments are ISO 8601 strings.
 */

// ---- requests ----

const requiredText = (required: string) => z.string({ error: required }).trim().min(1, required);
const wholeNumber = (required: string, invalid: string, min: number) =>
  requiredText(required)
    .regex(/^\d{1,8}$/, invalid)
    .transform(Number)
    .refine((n) => n >= min, invalid);

/** The product form's fields as multipart text (spec 002 §5); the price arrives as text and is read into cents. */
export const productFormFields = z
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
    category: z.enum(PRODUCT_CATEGORIES, {
      error: (i) => (i.input === undefined || i.input === '' ? PRODUCT_MESSAGES.categoryRequired : PRODUCT_MESSAGES.categoryInvalid),
    }),
    stock_quantity: wholeNumber(PRODUCT_MESSAGES.stockRequired, PRODUCT_MESSAGES.stockInvalid, 0),
    moq: wholeNumber(PRODUCT_MESSAGES.moqRequired, PRODUCT_MESSAGES.moqInvalid, 1),
    description: requiredText(PRODUCT_MESSAGES.descriptionRequired).max(5000, PRODUCT_MESSAGES.descriptionTooLong),
    id: z.string().optional(),
  })
  .strict();
/** What the form sends: every field as text. */
export type ProductFormValues = Record<Exclude<keyof z.input<typeof productFormFields>, 'id'>, string>;

// ---- answers ----

export const STOCK_STATUSES = ['in_stock', 'low_stock', 'out_of_stock'] as const;

/** A product as the API answers it (spec 002 §3), with its stock level and delivery time. */
export const productSchema = z.object({
  id: z.string(),
  name: z.string(),
  price: z.number(),
  category: z.string(),
  stock_quantity: z.number().int(),
  moq: z.number().int(),
  description: z.string(),
  /** The stored image's file name; `image_url` is where it is served. */
  image: z.string().nullable(),
  image_url: z.string().nullable(),
  stock_status: z.enum(STOCK_STATUSES),
  /** A label of DELIVERY_TIME_LABELS ('3-5 days', 'Out of Stock'). */
  delivery_time: z.enum(Object.values(DELIVERY_TIME_LABELS) as [string, ...string[]]),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProductView = z.infer<typeof productSchema>;

/** A product as the catalogue reads it to a partner whose programme tier carries a catalogue discount (the three fields are absent otherwise). */
export const catalogueProductSchema = productSchema.extend({
  your_price: z.number().optional(),
  discount_percent: z.number().optional(),
  discount_tier: z.string().optional(),
});
export type CatalogueProduct = z.infer<typeof catalogueProductSchema>;

/** react-admin's bare array (with Content-Range), or the specification's envelope with a `data` array. */
export const productListAnswer = z.union([
  z.array(catalogueProductSchema),
  z.object({
    success: z.literal(true),
    data: z.array(catalogueProductSchema),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalPages: z.number().int(),
  }),
]);

export const productAnswer = z.object({ success: z.literal(true), data: catalogueProductSchema });
export const productReadAnswer = z.union([productAnswer, asOfRecordAnswer]);

/** The product added (201; 200 for a repeated Idempotency-Key), or 202 while the read models catch up. */
export const productSavedAnswer = commandAnswer(productSchema);
export type ProductSavedAnswer = z.infer<typeof productSavedAnswer>;
export const productCreatedAnswers = { 200: productSavedAnswer, 201: productSavedAnswer, 202: acceptedAnswer } as const;

export const productDeletedAnswer = commandAnswer(z.object({ id: z.string() }));
export type ProductDeletedAnswer = z.infer<typeof productDeletedAnswer>;

export const productBulkDeleteAnswer = commandAnswer(
  z.object({
    /** Removed by this request. */
    deleted: z.array(z.string()),
    /** Already removed before it. */
    unchanged: z.array(z.string()),
  }),
);
export type ProductBulkDeleteAnswer = z.infer<typeof productBulkDeleteAnswer>;
