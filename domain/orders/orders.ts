import { insufficientStockMessage } from '../products/products';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { estimatedDeliveryProblem, normalizeShippingAddress, shippingAddressProblems, type ShippingAddress } from './shipping';

/**
 * Orders (spec 001 §4): placed as pending; an administrator approves, ships, delivers or cancels.
 * The prices of an order come from the catalogue at the moment of ordering (the command carries the
 * product as the catalogue showed it), never from the client.
 */

export const ORDER_STATUSES = ['pending', 'approved', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Statuses a client may name. `processing` is displayed by one screen and counted as pending, but no transition leads to it. */
export const KNOWN_ORDER_STATUSES = [...ORDER_STATUSES, 'processing'] as const;
export type KnownOrderStatus = (typeof KNOWN_ORDER_STATUSES)[number];

/** The transition table of spec 001 §4. */
export const ORDER_STATUS_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['approved', 'cancelled'],
  approved: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

export const ORDER_STATUS_LABELS: Readonly<Record<KnownOrderStatus, string>> = {
  pending: 'Pending',
  processing: 'Processing',
  approved: 'Approved',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

export const isOrderStatus = (value: unknown): value is OrderStatus => typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);

export const statusLabel = (status: string) => (status in ORDER_STATUS_LABELS ? ORDER_STATUS_LABELS[status as KnownOrderStatus] : status);

/** The statuses an order may move to next; [] for terminal or unknown statuses. */
export function nextStatuses(status: string): readonly OrderStatus[] {
  return isOrderStatus(status) ? ORDER_STATUS_TRANSITIONS[status] : [];
}

export function canChangeStatus(from: string, to: string): boolean {
  return nextStatuses(from).includes(to as OrderStatus);
}

export const ORDER_MESSAGES = {
  notFound: 'Order not found.',
  invalidTransition: 'Invalid status transition',
  transitionDetails: (from: string, to: string) => `Cannot change status from ${from} to ${to}`,
  onlyAdminsChangeStatus: 'Only administrators can update order statuses.',
  noItems: 'Please add items to cart before proceeding to checkout',
  duplicateProduct: 'Each product may appear only once in an order.',
  tooManyItems: 'An order may hold at most 50 different products.',
  statusUpdated: (orderNumber: string, status: string) => `Order ${orderNumber} status successfully updated to ${statusLabel(status)}`,
  carrierRequired: 'Carrier is required to ship an order',
  trackingNumberRequired: 'Tracking number is required to ship an order',
  trackingNumberInvalid: 'Tracking number may hold only letters, digits, spaces and dashes (3 to 60 characters)',
  carrierTooLong: 'Carrier must be at most 60 characters',
  shipmentOnlyWhenShipping: 'Carrier and tracking number belong to the shipped status only',
  created: 'Order created successfully!',
} as const;

/** Carriers the shipping dialog offers; any other carrier name may be typed. */
export const COMMON_CARRIERS = ['DHL Express', 'FedEx', 'UPS', 'USPS', 'DB Schenker', 'Kuehne+Nagel', 'Royal Mail'] as const;
const TRACKING_NUMBER = /^[A-Za-z0-9][A-Za-z0-9 -]{1,58}[A-Za-z0-9]$/;

/** How a shipped order travels: named by the administrator who ships it, shown to the ordering partner. */
export interface Shipment {
  carrier: string;
  trackingNumber: string;
}

/** The problems of a shipment (field → message); {} when it is complete. */
export function shipmentProblems(shipment: Partial<Shipment> | null | undefined): Partial<Record<keyof Shipment, string>> {
  const carrier = shipment?.carrier?.trim() ?? '';
  const trackingNumber = shipment?.trackingNumber?.trim() ?? '';
  const problems: Partial<Record<keyof Shipment, string>> = {};
  if (!carrier) problems.carrier = ORDER_MESSAGES.carrierRequired;
  else if (carrier.length > 60) problems.carrier = ORDER_MESSAGES.carrierTooLong;
  if (!trackingNumber) problems.trackingNumber = ORDER_MESSAGES.trackingNumberRequired;
  else if (!TRACKING_NUMBER.test(trackingNumber)) problems.trackingNumber = ORDER_MESSAGES.trackingNumberInvalid;
  return problems;
}

export const belowMoqMessage = (name: string, moq: number) => `The minimum order quantity for ${name} is ${moq}.`;
export const unavailableMessage = (name: string) => `${name} is no longer available.`;

export const MAX_ORDER_LINES = 50;

// ---- state, events, commands ----

export interface OrderLine {
  productId: string;
  productName: string;
  quantity: number;
  /** What the partner pays for one unit: the list price less its tier's discount. */
  unitPriceCents: number;
  lineTotalCents: number;
  /** The catalogue's price when a discount applied (absent without one). */
  listPriceCents?: number;
}

/** The programme tier's catalogue discount in force when the order is placed. */
export interface TierDiscount {
  tierId: string;
  tierName: string;
  percent: number;
}

/** A list price less a percentage, to the nearest cent. */
export const discountedPriceCents = (listPriceCents: number, percent: number) => Math.round((listPriceCents * (100 - percent)) / 100);

/** A product as the catalogue shows it when the order is placed; null when it does not exist. */
export interface CatalogueProduct {
  productId: string;
  name: string;
  priceCents: number;
  moq: number;
  stockQuantity: number;
  available: boolean;
}

export type OrderState =
  | { status: 'none' }
  | {
      status: OrderStatus;
      id: string;
      orderNumber: string;
      organisationId: string;
      items: OrderLine[];
      totalCents: number;
      /** Not needed to decide; kept so the order can be read as it was at any past moment. */
      companyName: string | null;
      placedBy: string;
      shippingAddress: ShippingAddress;
      estimatedDelivery: string;
      notes: string | null;
    };

export type OrderEvent =
  | {
      type: 'OrderPlaced.v1';
      data: {
        orderId: string;
        orderNumber: string;
        /** The ordering organisation: the partner or distributor account (a team member's parent). */
        organisationId: string;
        companyName: string | null;
        placedBy: string;
        items: OrderLine[];
        totalCents: number;
        /** The tier's discount the unit prices carry (absent when none applied). */
        discount?: TierDiscount;
        shippingAddress: ShippingAddress;
        estimatedDelivery: string;
        notes: string | null;
        status: 'pending';
        previousStatus: null;
      };
    }
  | {
      type: 'OrderStatusChanged.v1';
      data: {
        orderId: string;
        orderNumber: string;
        organisationId: string;
        status: OrderStatus;
        previousStatus: OrderStatus;
        /** The administrator's notes, shown on the tracking timeline. */
        reason: string | null;
        /** Only on the change to shipped (absent from events recorded before shipments were named). */
        carrier?: string;
        trackingNumber?: string;
      };
    }
  | {
      /** Each unit of a shipped order gets a serial number: what warranty checks and returns refer to. */
      type: 'OrderUnitsSerialised.v1';
      data: { orderId: string; orderNumber: string; organisationId: string; units: SerialisedUnit[] };
    };

export interface SerialisedUnit {
  serialNumber: string;
  productId: string;
  productName: string;
}

/**
 * SN-2026-001042-01003: the order's number, the line (01) and the unit on that line (003), so a
 * serial number is unique, can be read out on the phone and leads straight to its order.
 */
export function serialNumbersOf(orderNumber: string, items: readonly OrderLine[]): SerialisedUnit[] {
  const base = orderNumber.replace(/^ORD-/, 'SN-');
  return items.flatMap((item, line) =>
    Array.from({ length: item.quantity }, (_, unit) => ({
      serialNumber: `${base}-${String(line + 1).padStart(2, '0')}${String(unit + 1).padStart(3, '0')}`,
      productId: item.productId,
      productName: item.productName,
    })),
  );
}
export const SERIAL_NUMBER_PATTERN = /^SN-\d{4}-\d{6,}-\d{5,}$/;

export type OrderCommand =
  | {
      type: 'PlaceOrder';
      orderId: string;
      orderNumber: string;
      organisationId: string;
      companyName: string | null;
      placedBy: string;
      lines: Array<{ productId: string; quantity: number; product: CatalogueProduct | null }>;
      shippingAddress: ShippingAddress;
      estimatedDelivery: string;
      notes: string | null;
      /** Looked up from the programme tier in force at the order's time; null without a tier or a discount. */
      discount: TierDiscount | null;
    }
  | { type: 'ChangeOrderStatus'; status: string; notes: string | null; shipment?: Shipment | null };

const isAdmin = (role: string | null) => role === 'admin' || role === 'administrator';

/** Refusals of PlaceOrder come with field details, like a form's validation. */
function invalid(code: string, message: string, field: string): DomainError {
  return new DomainError('invalid', code, message, [{ field, message }]);
}

function placeOrder(command: Extract<OrderCommand, { type: 'PlaceOrder' }>, metadata: CommandMetadata): OrderEvent[] {
  if (command.lines.length === 0) throw invalid('VALIDATION_ERROR', ORDER_MESSAGES.noItems, 'items');
  if (command.lines.length > MAX_ORDER_LINES) throw invalid('VALIDATION_ERROR', ORDER_MESSAGES.tooManyItems, 'items');
  const seen = new Set<string>();
  const discount = command.discount && command.discount.percent > 0 ? command.discount : null;
  if (discount && !(discount.percent < 100)) throw invalid('VALIDATION_ERROR', 'A discount must be less than 100 %.', 'items');
  const items: OrderLine[] = command.lines.map((line, index) => {
    if (seen.has(line.productId)) throw invalid('VALIDATION_ERROR', ORDER_MESSAGES.duplicateProduct, `items.${index}.product_id`);
    seen.add(line.productId);
    const product = line.product;
    if (!product || !product.available) {
      throw new DomainError('conflict', 'PRODUCT_UNAVAILABLE', unavailableMessage(product?.name ?? 'This product'), [
        { field: `items.${index}.product_id`, message: 'This product is not in the catalogue.' },
      ]);
    }
    if (!Number.isInteger(line.quantity) || line.quantity < 1)
      throw invalid('VALIDATION_ERROR', 'Quantity must be a whole number of at least 1.', `items.${index}.quantity`);
    if (line.quantity < product.moq) throw invalid('QUANTITY_BELOW_MOQ', belowMoqMessage(product.name, product.moq), `items.${index}.quantity`);
    if (line.quantity > product.stockQuantity) {
      throw new DomainError('conflict', 'INSUFFICIENT_STOCK', insufficientStockMessage(product.name, product.stockQuantity), [
        { field: `items.${index}.quantity`, message: insufficientStockMessage(product.name, product.stockQuantity) },
      ]);
    }
    const unitPriceCents = discount ? discountedPriceCents(product.priceCents, discount.percent) : product.priceCents;
    return {
      productId: product.productId,
      productName: product.name,
      quantity: line.quantity,
      unitPriceCents,
      lineTotalCents: unitPriceCents * line.quantity,
      ...(discount ? { listPriceCents: product.priceCents } : {}),
    };
  });

  const addressProblems = shippingAddressProblems(command.shippingAddress);
  const firstAddressProblem = Object.entries(addressProblems)[0];
  if (firstAddressProblem) {
    throw new DomainError(
      'invalid',
      'VALIDATION_ERROR',
      firstAddressProblem[1],
      Object.entries(addressProblems).map(([field, message]) => ({ field: `shipping_address.${field}`, message })),
    );
  }
  const deliveryProblem = estimatedDeliveryProblem(command.estimatedDelivery, metadata.now);
  if (deliveryProblem) throw invalid('VALIDATION_ERROR', deliveryProblem, 'estimated_delivery');

  return [
    {
      type: 'OrderPlaced.v1',
      data: {
        orderId: command.orderId,
        orderNumber: command.orderNumber,
        organisationId: command.organisationId,
        companyName: command.companyName,
        placedBy: command.placedBy,
        items,
        totalCents: items.reduce((sum, item) => sum + item.lineTotalCents, 0),
        ...(discount ? { discount } : {}),
        shippingAddress: normalizeShippingAddress(command.shippingAddress),
        estimatedDelivery: command.estimatedDelivery.trim(),
        notes: command.notes?.trim() || null,
        status: 'pending',
        previousStatus: null,
      },
    },
  ];
}

export function decide(command: OrderCommand, state: OrderState, metadata: CommandMetadata): OrderEvent[] {
  switch (command.type) {
    case 'PlaceOrder':
      // Placing the same order again (a retried request) changes nothing.
      if (state.status !== 'none') return [];
      return placeOrder(command, metadata);
    case 'ChangeOrderStatus': {
      if (!isAdmin(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', ORDER_MESSAGES.onlyAdminsChangeStatus);
      if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', ORDER_MESSAGES.notFound);
      if (!canChangeStatus(state.status, command.status)) {
        throw new DomainError(
          'conflict',
          'INVALID_STATUS_TRANSITION',
          ORDER_MESSAGES.invalidTransition,
          ORDER_MESSAGES.transitionDetails(state.status, command.status),
        );
      }
      const ref = { orderId: state.id, orderNumber: state.orderNumber, organisationId: state.organisationId };
      const base = { ...ref, status: command.status as OrderStatus, previousStatus: state.status, reason: command.notes?.trim() || null };
      if (command.status !== 'shipped') {
        if (command.shipment)
          throw new DomainError('invalid', 'VALIDATION_ERROR', ORDER_MESSAGES.shipmentOnlyWhenShipping, [
            { field: 'carrier', message: ORDER_MESSAGES.shipmentOnlyWhenShipping },
          ]);
        return [{ type: 'OrderStatusChanged.v1', data: base }];
      }
      const problems = Object.entries(shipmentProblems(command.shipment));
      if (problems.length) {
        const field = (name: string) => (name === 'trackingNumber' ? 'tracking_number' : name);
        throw new DomainError(
          'invalid',
          'VALIDATION_ERROR',
          problems[0][1],
          problems.map(([name, message]) => ({ field: field(name), message })),
        );
      }
      const shipment = { carrier: command.shipment!.carrier.trim(), trackingNumber: command.shipment!.trackingNumber.trim() };
      return [
        { type: 'OrderStatusChanged.v1', data: { ...base, ...shipment } },
        { type: 'OrderUnitsSerialised.v1', data: { ...ref, units: serialNumbersOf(state.orderNumber, state.items) } },
      ];
    }
    default:
      return assertNever(command);
  }
}

export function evolve(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'OrderPlaced.v1': {
      const d = event.data;
      return {
        status: 'pending',
        id: d.orderId,
        orderNumber: d.orderNumber,
        organisationId: d.organisationId,
        items: d.items,
        totalCents: d.totalCents,
        companyName: d.companyName,
        placedBy: d.placedBy,
        shippingAddress: d.shippingAddress,
        estimatedDelivery: d.estimatedDelivery,
        notes: d.notes,
      };
    }
    case 'OrderStatusChanged.v1':
      return state.status === 'none' ? state : { ...state, status: event.data.status };
    case 'OrderUnitsSerialised.v1':
      return state;
    default:
      return assertNever(event);
  }
}

export const orders: Decider<OrderState, OrderCommand, OrderEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `orders-${id}`,
};

// ---- order numbers ----

/** ORD-2026-000123: the year the order was placed and a number no other order has. */
export function formatOrderNumber(placedAt: string | Date, sequence: number | bigint): string {
  return `ORD-${new Date(placedAt).getUTCFullYear()}-${String(sequence).padStart(6, '0')}`;
}
export const ORDER_NUMBER_PATTERN = /^ORD-\d{4}-\d{6,}$/;

// ---- statistics (spec 001 §9) ----

/** $x.xx below 1,000; $x.xK from 1,000; $x.xM from 1,000,000. */
export function formatOrderTotal(amount: number): string {
  if (amount >= 1_000_000) return `$${(amount / 1_000_000).toFixed(1)}M`;
  if (amount >= 1_000) return `$${(amount / 1_000).toFixed(1)}K`;
  return `$${amount.toFixed(2)}`;
}

/** Statistics count both of these as pending. */
export const PENDING_LIKE_STATUSES = ['pending', 'processing'] as const;
