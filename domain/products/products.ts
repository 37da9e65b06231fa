import { assertNever, DomainError, type Decider } from '../decider';

/**
 * The product catalogue. One stream per product (`products-<id>`) holds its listing and its stock:
 * reserving stock for an order and releasing it happen on the product's own stream, so two orders
 * can never both take the last unit.
 */

/** The vendor's brand, which prefixes three of the categories (spec 002 §9). */
export const VENDOR_BRAND = 'Helix';

/** The fixed list of 7 categories (spec 002 §9). */
export const PRODUCT_CATEGORIES = [
  'Managed Switches',
  'Unmanaged Switches',
  `${VENDOR_BRAND} Xtreme Switches`,
  'Industrial Managed Switches',
  'Industrial Unmanaged Switches',
  `${VENDOR_BRAND} Accessories`,
  `${VENDOR_BRAND} Power Supply`,
] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

export const isProductCategory = (value: unknown): value is ProductCategory =>
  typeof value === 'string' && (PRODUCT_CATEGORIES as readonly string[]).includes(value);

/** Largest price accepted, in cents ($10,000,000.00). */
export const MAX_PRICE_CENTS = 1_000_000_000;
export const MAX_STOCK = 10_000_000;
export const DEFAULT_MOQ = 1;

export const PRODUCT_MESSAGES = {
  notFound: 'Product not found.',
  alreadyExists: 'This product already exists.',
  nameRequired: 'Product name is required.',
  nameTooLong: 'Product name must be at most 200 characters.',
  priceRequired: 'Price is required.',
  priceInvalid: 'Price must be a number of at least 0 with at most 2 decimals.',
  priceTooHigh: 'Price must be at most 10,000,000.00.',
  categoryRequired: 'Category is required.',
  categoryInvalid: `Category must be one of: ${PRODUCT_CATEGORIES.join(', ')}.`,
  stockRequired: 'Stock quantity is required.',
  stockInvalid: 'Stock quantity must be a whole number of at least 0.',
  moqRequired: 'MOQ is required.',
  moqInvalid: 'MOQ must be a whole number of at least 1.',
  descriptionRequired: 'Description is required.',
  descriptionTooLong: 'Description must be at most 5000 characters.',
  quantityInvalid: 'Quantity must be a whole number of at least 1.',
} as const;

// ---- stock levels shown to buyers (spec 002 §4 and §9) ----

export type StockStatus = 'in_stock' | 'low_stock' | 'out_of_stock';
export const STOCK_STATUS_LABELS: Readonly<Record<StockStatus, string>> = {
  in_stock: 'In Stock',
  low_stock: 'Low Stock',
  out_of_stock: 'Out of Stock',
};
/** 1 to this many units is low stock. */
export const LOW_STOCK_LIMIT = 10;

export function stockStatus(stock: number): StockStatus {
  if (stock <= 0) return 'out_of_stock';
  return stock <= LOW_STOCK_LIMIT ? 'low_stock' : 'in_stock';
}

export type DeliveryTime = 'fast' | 'medium' | 'slow' | 'unavailable';
export const DELIVERY_TIME_LABELS: Readonly<Record<DeliveryTime, string>> = {
  fast: '3-5 days',
  medium: '1-2 weeks',
  slow: '2-3 weeks',
  unavailable: 'Out of Stock',
};
/** The catalogue's delivery-time filter choices. */
export const DELIVERY_TIME_FILTERS: Readonly<Record<DeliveryTime, string>> = {
  fast: 'Fast (3-5 days)',
  medium: 'Medium (1-2 weeks)',
  slow: 'Slow (2-3 weeks)',
  unavailable: 'Unavailable',
};

/** Delivery time derived from stock: 0 none, 1-10 two to three weeks, 11-50 one to two weeks, more three to five days. */
export function deliveryTime(stock: number): DeliveryTime {
  if (stock <= 0) return 'unavailable';
  if (stock <= LOW_STOCK_LIMIT) return 'slow';
  if (stock <= 50) return 'medium';
  return 'fast';
}

/** The stock range (inclusive) of a delivery time, for queries. */
export const DELIVERY_TIME_STOCK: Readonly<Record<DeliveryTime, { min: number; max: number | null }>> = {
  unavailable: { min: 0, max: 0 },
  slow: { min: 1, max: LOW_STOCK_LIMIT },
  medium: { min: LOW_STOCK_LIMIT + 1, max: 50 },
  fast: { min: 51, max: null },
};

// ---- state, events, commands ----

export interface ProductDetails {
  name: string;
  priceCents: number;
  category: ProductCategory;
  moq: number;
  description: string;
  /** A stored upload's file name, served at /uploads/<name>. */
  image: string | null;
}

export type ProductState =
  | { status: 'none' }
  | ({
      status: 'listed' | 'removed';
      id: string;
      /** Units available to order now (reserved units are already taken off). */
      stockQuantity: number;
      /** Units held per order id, until the order is cancelled. */
      reservations: Readonly<Record<string, number>>;
    } & ProductDetails);

export type ProductEvent =
  | { type: 'ProductAdded.v1'; data: ProductDetails & { productId: string; stockQuantity: number } }
  | { type: 'ProductUpdated.v1'; data: ProductDetails & { productId: string; stockQuantity: number } }
  | { type: 'ProductRemoved.v1'; data: { productId: string } }
  | { type: 'StockReserved.v1'; data: { productId: string; orderId: string; quantity: number; stockQuantity: number } }
  | { type: 'StockReleased.v1'; data: { productId: string; orderId: string; quantity: number; stockQuantity: number } };

export type ProductCommand =
  | ({ type: 'AddProduct'; productId: string; stockQuantity: number } & ProductDetails)
  /** A full edit; `image: undefined` keeps the current image. */
  | ({ type: 'UpdateProduct'; stockQuantity: number } & Omit<ProductDetails, 'image'> & { image?: string | null })
  | { type: 'RemoveProduct' }
  /** Takes units off the stock for an order; doing it again for the same order changes nothing. */
  | { type: 'ReserveStock'; orderId: string; quantity: number }
  /** Gives an order's units back; a no-op when the order holds none. */
  | { type: 'ReleaseStock'; orderId: string };

export interface FieldProblem {
  field: string;
  message: string;
}

const isWhole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n);

/** The product form's rules (spec 002 §5), as field problems; [] when valid. */
export function productProblems(input: {
  name: string;
  priceCents: number;
  category: string;
  stockQuantity: number;
  moq: number;
  description: string;
}): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const name = input.name?.trim() ?? '';
  if (!name) problems.push({ field: 'name', message: PRODUCT_MESSAGES.nameRequired });
  else if (name.length > 200) problems.push({ field: 'name', message: PRODUCT_MESSAGES.nameTooLong });
  if (!isWhole(input.priceCents) || input.priceCents < 0) problems.push({ field: 'price', message: PRODUCT_MESSAGES.priceInvalid });
  else if (input.priceCents > MAX_PRICE_CENTS) problems.push({ field: 'price', message: PRODUCT_MESSAGES.priceTooHigh });
  if (!isProductCategory(input.category))
    problems.push({ field: 'category', message: input.category ? PRODUCT_MESSAGES.categoryInvalid : PRODUCT_MESSAGES.categoryRequired });
  if (!isWhole(input.stockQuantity) || input.stockQuantity < 0 || input.stockQuantity > MAX_STOCK)
    problems.push({ field: 'stock_quantity', message: PRODUCT_MESSAGES.stockInvalid });
  if (!isWhole(input.moq) || input.moq < 1 || input.moq > MAX_STOCK) problems.push({ field: 'moq', message: PRODUCT_MESSAGES.moqInvalid });
  const description = input.description?.trim() ?? '';
  if (!description) problems.push({ field: 'description', message: PRODUCT_MESSAGES.descriptionRequired });
  else if (description.length > 5000) problems.push({ field: 'description', message: PRODUCT_MESSAGES.descriptionTooLong });
  return problems;
}

function validate(input: Parameters<typeof productProblems>[0]): void {
  const problems = productProblems(input);
  if (problems.length) throw new DomainError('invalid', 'VALIDATION_ERROR', problems[0].message, problems);
}

type Existing = Exclude<ProductState, { status: 'none' }>;

function listed(state: ProductState): Existing & { status: 'listed' } {
  if (state.status !== 'listed') throw new DomainError('not_found', 'NOT_FOUND', PRODUCT_MESSAGES.notFound);
  return state as Existing & { status: 'listed' };
}

export const insufficientStockMessage = (name: string, available: number) =>
  available <= 0 ? `${name} is out of stock.` : `Only ${available} unit${available === 1 ? '' : 's'} of ${name} ${available === 1 ? 'is' : 'are'} in stock.`;

export function decide(command: ProductCommand, state: ProductState): ProductEvent[] {
  switch (command.type) {
    case 'AddProduct': {
      if (state.status !== 'none') throw new DomainError('conflict', 'CONFLICT', PRODUCT_MESSAGES.alreadyExists);
      validate(command);
      const { type: _type, ...data } = command;
      return [{ type: 'ProductAdded.v1', data: { ...data, name: data.name.trim(), description: data.description.trim() } }];
    }
    case 'UpdateProduct': {
      const product = listed(state);
      validate(command);
      const next = {
        productId: product.id,
        name: command.name.trim(),
        priceCents: command.priceCents,
        category: command.category,
        stockQuantity: command.stockQuantity,
        moq: command.moq,
        description: command.description.trim(),
        image: command.image === undefined ? product.image : command.image,
      };
      const unchanged =
        next.name === product.name &&
        next.priceCents === product.priceCents &&
        next.category === product.category &&
        next.stockQuantity === product.stockQuantity &&
        next.moq === product.moq &&
        next.description === product.description &&
        next.image === product.image;
      return unchanged ? [] : [{ type: 'ProductUpdated.v1', data: next }];
    }
    case 'RemoveProduct': {
      const product = listed(state);
      return [{ type: 'ProductRemoved.v1', data: { productId: product.id } }];
    }
    case 'ReserveStock': {
      if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', PRODUCT_MESSAGES.notFound);
      if (Object.hasOwn(state.reservations, command.orderId)) return [];
      if (state.status === 'removed')
        throw new DomainError('conflict', 'PRODUCT_UNAVAILABLE', `${state.name} is no longer available.`, { productId: state.id });
      if (!isWhole(command.quantity) || command.quantity < 1) throw new DomainError('invalid', 'VALIDATION_ERROR', PRODUCT_MESSAGES.quantityInvalid);
      if (command.quantity > state.stockQuantity) {
        throw new DomainError('conflict', 'INSUFFICIENT_STOCK', insufficientStockMessage(state.name, state.stockQuantity), {
          productId: state.id,
          available: state.stockQuantity,
        });
      }
      return [
        {
          type: 'StockReserved.v1',
          data: { productId: state.id, orderId: command.orderId, quantity: command.quantity, stockQuantity: state.stockQuantity - command.quantity },
        },
      ];
    }
    case 'ReleaseStock': {
      if (state.status === 'none' || !Object.hasOwn(state.reservations, command.orderId)) return [];
      const quantity = state.reservations[command.orderId];
      return [{ type: 'StockReleased.v1', data: { productId: state.id, orderId: command.orderId, quantity, stockQuantity: state.stockQuantity + quantity } }];
    }
    default:
      return assertNever(command);
  }
}

export function evolve(state: ProductState, event: ProductEvent): ProductState {
  if (event.type === 'ProductAdded.v1') {
    const { productId, ...details } = event.data;
    return { status: 'listed', id: productId, ...details, reservations: {} };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'ProductUpdated.v1': {
      const { productId: _id, ...details } = event.data;
      return { ...state, ...details };
    }
    case 'ProductRemoved.v1':
      return { ...state, status: 'removed' };
    case 'StockReserved.v1':
      return { ...state, stockQuantity: event.data.stockQuantity, reservations: { ...state.reservations, [event.data.orderId]: event.data.quantity } };
    case 'StockReleased.v1': {
      const { [event.data.orderId]: _released, ...rest } = state.reservations;
      return { ...state, stockQuantity: event.data.stockQuantity, reservations: rest };
    }
    default:
      return assertNever(event);
  }
}

export const products: Decider<ProductState, ProductCommand, ProductEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide: (command, state) => decide(command, state),
  streamId: (id) => `products-${id}`,
};
