import { z } from 'zod';
import { KNOWN_ORDER_STATUSES, ORDER_NUMBER_PATTERN, ORDER_STATUSES } from '../domain/orders/orders';
import { booleanFilter, listQuerySchema } from './lists';
import { acceptedAnswer, asOfRecordAnswer, commandAnswer, listAnswer, statusChangeSchema, statusHistoryAnswer, type StatusChange } from './answers';

/**
 * Orders: a partner's or distributor's purchase from the catalogue, placed with a shipping address
 * and moved through its statuses by administrators (spec 001, 002 §3).
 *
 * Routes (all under /api):
 * - GET  /orders                      the caller's organisation's orders (all for admins, manufacturers, support) — `orderListAnswer`
 * - GET  /orders/counts               how many orders each status tab holds under the list's filters — `orderCountsAnswer`
 * - GET  /orders/export               the list as CSV (text/csv) — `orderExportAnswer`
 * - GET  /orders/organisations        the organisations the caller may filter by — `orderOrganisationsAnswer`
 * - GET  /orders/shipping-profile     the caller's organisation as a shipping address — `shippingProfileAnswer`
 * - GET  /orders/stats                the statistics cards — `orderStatisticsAnswer`
 * - GET  /orders/:id                  one order (by id or number; with `asOf`: as it was then) — `orderReadAnswer`
 * - GET  /orders/:id/versions         the order's versions (the project's `/versions` answer)
 * - GET  /orders/:id/track            the order and its status timeline — `orderTrackAnswer`
 * - GET  /orders/:id/history          the order's status changes — `statusHistoryAnswer`
 * - POST /orders                      `orderBody` → 201 `orderPlacedAnswers`
 * - PUT  /orders/admin/:id/status     admins: `orderStatusBody` → `orderStatusAnswer`
 * Amounts are dollars as JSON numbers (two decimals); moments are ISO 8601 strings.
 */

// ---- requests ----

/** An order is addressed by its id or by its number (ORD-2026-001042). */
export const orderParam = z
  .object({ id: z.union([z.uuid(), z.string().trim().toUpperCase().regex(ORDER_NUMBER_PATTERN)], { error: 'The order id in the address is not valid.' }) })
  .strict();

const text = (max: number) => z.string().max(max);

/** Types and sizes are checked here; the business rules (required fields, MOQ, stock, dates) by the order's decider. */
export const shippingAddressBody = z
  .object({
    firstName: text(1000).optional(),
    lastName: text(1000).optional(),
    email: text(1000).optional(),
    phone: text(1000).optional(),
    addressLine1: text(1000).optional(),
    addressLine2: text(1000).optional(),
    city: text(1000).optional(),
    state: text(1000).optional(),
    zipCode: text(1000).optional(),
    country: text(1000).optional(),
    specialInstructions: text(2000).optional(),
  })
  .strict();

export const orderBody = z
  .object({
    /** The client sends its own id; an order is always placed for the caller's organisation. */
    partner_id: z
      .union([z.string().max(100), z.number()])
      .nullable()
      .optional(),
    estimated_delivery: text(40).optional(),
    notes: text(2000).nullable().optional(),
    items: z
      .array(
        z
          .object({
            product_id: z.uuid({ error: 'Choose products from the catalogue.' }),
            quantity: z.number({ error: 'Quantity must be a number.' }).int('Quantity must be a whole number.').min(1, 'Quantity must be at least 1.'),
            /** Accepted for the specification's payload and ignored: prices come from the catalogue. */
            unit_price: z
              .union([z.number(), z.string().max(40)])
              .nullable()
              .optional(),
          })
          .strict(),
      )
      .max(50),
    shipping_address: shippingAddressBody,
    /** Optional: one of the organisation's projects (deal registrations) the order belongs to. */
    project_id: z.uuid({ error: "Choose one of your organisation's projects." }).nullable().optional(),
  })
  .strict()
  .meta({
    example: {
      estimated_delivery: '2027-01-15',
      notes: 'Deliver to the loading dock.',
      items: [{ product_id: '5f0c8a9e-2f4b-4c1d-9a7e-3b6d2c1e0f9a', quantity: 1 }],
      shipping_address: {
        firstName: 'Ines',
        lastName: 'Moreau',
        email: 'ines.moreau@fjord-networks.example',
        phone: '+1 415 555 0100',
        addressLine1: '1 Market Street',
        city: 'San Francisco',
        state: 'CA',
        zipCode: '94105',
        country: 'United States',
      },
    },
  });
export type OrderBody = z.input<typeof orderBody>;

export const orderStatusBody = z
  .object({
    status: z.string({ error: 'Status is required.' }).trim().min(1, 'Status is required.').max(40),
    notes: text(1000).nullable().optional(),
    /** Required when shipping (the order's decider checks them), refused otherwise. */
    carrier: text(200).nullable().optional(),
    tracking_number: text(200).nullable().optional(),
  })
  .strict()
  .meta({ example: { status: 'approved', notes: 'Credit check passed.' } });

// ---- answers ----

/** The address an order ships to, as the decider accepted it (the ship-to contact of an erased person reads as erased). */
export const shippingAddressSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  addressLine1: z.string(),
  addressLine2: z.string().optional(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  country: z.string(),
  specialInstructions: z.string().optional(),
});

export const orderItemSchema = z.object({
  product_id: z.string(),
  product_name: z.string(),
  /** The product's name again (the confirmation page reads `name`). */
  name: z.string(),
  quantity: z.number().int(),
  unit_price: z.number(),
  line_total: z.number(),
});
export type OrderItem = z.infer<typeof orderItemSchema>;

/**
 * An order as lists answer it: the fields of spec 001 §3 (order_id is the order number; total_amount;
 * partner.company_name; order_items) and of the confirmation page (002 §3: items, shipping_address,
 * created_at, order_number).
 */
export const orderSchema = z.object({
  id: z.string(),
  order_id: z.string(),
  order_number: z.string(),
  /** One of ORDER_STATUSES, or 'processing' on orders placed before it was folded into pending. */
  status: z.string(),
  next_statuses: z.array(z.enum(ORDER_STATUSES)),
  notes: z.string().nullable(),
  total_amount: z.number(),
  item_count: z.number().int(),
  organisation_id: z.string(),
  company_name: z.string().nullable(),
  partner: z.object({ id: z.string(), company_name: z.string().nullable() }),
  placed_by: z.string(),
  placed_by_name: z.string().nullable(),
  shipping_address: shippingAddressSchema,
  /** YYYY-MM-DD. */
  estimated_delivery: z.string(),
  created_at: z.string(),
  order_date: z.string(),
  updated_at: z.string(),
  approved_at: z.string().nullable(),
  shipped_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  delivery_date: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  /** Named when the order is shipped. */
  carrier: z.string().nullable(),
  tracking_number: z.string().nullable(),
  items: z.array(orderItemSchema),
  order_items: z.array(orderItemSchema),
});
export type OrderView = z.infer<typeof orderSchema>;

/** One order read on its own: with the serial number of each unit shipped. */
export const orderDetailSchema = orderSchema.extend({
  serial_numbers: z.array(z.object({ serial_number: z.string(), product_id: z.string(), product_name: z.string() })),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

export const orderListAnswer = listAnswer('orders', orderSchema);

export const orderCountsSchema = z.object({
  all: z.number().int(),
  pending: z.number().int(),
  approved: z.number().int(),
  shipped: z.number().int(),
  delivered: z.number().int(),
  cancelled: z.number().int(),
});
export type OrderStatusCounts = z.infer<typeof orderCountsSchema>;
export const orderCountsAnswer = z.object({ success: z.literal(true), data: orderCountsSchema });

/** A file download: the body is the file, not JSON (the serializer is not involved). */
export const orderExportAnswer = z.string().describe('text/csv: one row per order the filters select, in the list order');

export const orderOrganisationSchema = z.object({ id: z.string(), name: z.string() });
export type OrderOrganisation = z.infer<typeof orderOrganisationSchema>;
export const orderOrganisationsAnswer = z.object({ success: z.literal(true), data: z.array(orderOrganisationSchema) });

/** The ordering organisation's profile, as the shipping form's starting point. */
export const shippingProfileSchema = z.object({
  company_name: z.string().nullable(),
  /** The address fields the profile knows; the rest are left for the buyer. */
  address: shippingAddressSchema.partial(),
  /** The country as the profile names it (null when it names none), for the form's mismatch warning. */
  profile_country: z.string().nullable(),
});
export type ShippingProfile = z.infer<typeof shippingProfileSchema>;
export const shippingProfileAnswer = z.object({ success: z.literal(true), data: shippingProfileSchema });

/** The statistics cards (spec 001 §9). */
export const orderStatisticsSchema = z.object({
  totalOrders: z.number().int(),
  pendingOrders: z.number().int(),
  approvedOrders: z.number().int(),
  shippedOrders: z.number().int(),
  deliveredOrders: z.number().int(),
  cancelledOrders: z.number().int(),
  thisMonthOrders: z.number().int(),
  thisMonthTotal: z.number(),
  thisMonthTotalFormatted: z.string(),
  averageDeliveryDays: z.number().int().nullable(),
});
export type OrderStatistics = z.infer<typeof orderStatisticsSchema>;
export const orderStatisticsAnswer = z.object({ success: z.literal(true), data: orderStatisticsSchema });

/** An order's status changes (its history and its tracking timeline): the shape every record with statuses shares. */
export { statusHistoryAnswer, type StatusChange };

export const orderAnswer = z.object({ success: z.literal(true), data: orderDetailSchema });
export const orderReadAnswer = z.union([orderAnswer, asOfRecordAnswer]);

export const orderTrackAnswer = z.object({ success: z.literal(true), data: z.object({ order: orderDetailSchema, timeline: z.array(statusChangeSchema) }) });

/** POST /orders: the order placed (201; 200 for a repeated Idempotency-Key), or 202 while the read models catch up. */
export const orderPlacedAnswer = commandAnswer(orderDetailSchema);
export const orderPlacedAnswers = { 200: orderPlacedAnswer, 201: orderPlacedAnswer, 202: acceptedAnswer } as const;

/** PUT /orders/admin/:id/status (spec 001 §3): `details` says which change was made. */
export const orderStatusAnswer = commandAnswer(orderDetailSchema).extend({ details: z.string() });

/** An amount in dollars: a JSON number from react-admin's filter, or its text in a query string. */
const amount = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^\d{1,12}(\.\d{1,2})?$/, 'Amounts are numbers such as 1500 or 1500.50.')
      .transform(Number),
  ])
  .pipe(z.number().min(0, 'Amounts cannot be negative.').max(1e12));
const day = z.iso.date({ error: 'Dates are written YYYY-MM-DD.' });

/** The query of GET /orders, its count and its export. */
export const orderListQuery = listQuerySchema(
  {
    status: z.enum(KNOWN_ORDER_STATUSES).optional(),
    organisation_id: z.uuid({ error: 'Choose an organisation from the list.' }).optional(),
    date_gte: day.optional(),
    date_lte: day.optional(),
    total_gte: amount.optional(),
    total_lte: amount.optional(),
    awaiting_shipment: booleanFilter.optional(),
  },
  ['created_at', 'total_amount', 'status', 'order_number', 'company_name', 'estimated_delivery', 'item_count'],
);
export type OrderListQuery = z.infer<typeof orderListQuery>;
