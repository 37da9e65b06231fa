import type { ProductView } from '@contracts/products';

/**
 * The cart (spec 002 §4): adding uses the chosen quantity or the product's MOQ, adding the same
 * product again increases its line, and a line never goes below 1 nor above the stock. It lives
 * in the tab's session storage, so a reload or the way to the shipping form keeps it.
 */

import { useSyncExternalStore } from 'react';

/** What the cart keeps of a product. */
export type CartProduct = Pick<ProductView, 'id' | 'name' | 'price' | 'category' | 'stock_quantity' | 'moq' | 'description' | 'image' | 'image_url'>;

export interface CartLine extends CartProduct {
  quantity: number;
}

const STORAGE_KEY = 'cart';
const listeners = new Set<() => void>();
let lines: CartLine[] = read();

function read(): CartLine[] {
  try {
    const parsed = JSON.parse(globalThis.sessionStorage?.getItem(STORAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as CartLine[]).filter((l) => l && typeof l.id === 'string' && Number.isFinite(l.quantity)) : [];
  } catch {
    return [];
  }
}

function write(next: CartLine[]): void {
  lines = next;
  try {
    globalThis.sessionStorage?.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Storage full or unavailable: the cart still works for this page.
  }
  for (const listener of listeners) listener();
}

const clamp = (quantity: number, max: number) => Math.max(1, Math.min(Math.floor(quantity), Math.max(max, 1)));

/** Adding: the chosen quantity, else the MOQ; a product already in the cart gets the quantity added. */
export function addToCart(product: CartProduct, quantity?: number): void {
  const wanted = quantity && quantity > 0 ? quantity : Math.max(product.moq, 1);
  const existing = lines.find((l) => l.id === product.id);
  if (existing) {
    write(lines.map((l) => (l.id === product.id ? { ...product, quantity: clamp(l.quantity + wanted, product.stock_quantity) } : l)));
  } else {
    write([...lines, { ...product, quantity: clamp(wanted, product.stock_quantity) }]);
  }
}

export function setCartQuantity(productId: string, quantity: number): void {
  write(lines.map((l) => (l.id === productId ? { ...l, quantity: clamp(Number.isFinite(quantity) ? quantity : 1, l.stock_quantity) } : l)));
}

export function removeFromCart(productId: string): void {
  write(lines.filter((l) => l.id !== productId));
}

export function clearCart(): void {
  write([]);
}

export const cartLines = (): CartLine[] => lines;
export const cartTotal = (items: readonly CartLine[]): number => Math.round(items.reduce((sum, l) => sum + l.price * 100 * l.quantity, 0)) / 100;
export const cartCount = (items: readonly CartLine[]): number => items.reduce((n, l) => n + l.quantity, 0);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) {
      lines = read();
      listener();
    }
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

export function useCart(): CartLine[] {
  return useSyncExternalStore(subscribe, cartLines, cartLines);
}

// ---- the cart's slide-over on narrow screens: opened from the app bar or after an add ----

const drawerListeners = new Set<() => void>();
let drawerOpen = false;

function setDrawer(open: boolean): void {
  drawerOpen = open;
  for (const listener of drawerListeners) listener();
}

export const openCart = (): void => setDrawer(true);
export const closeCart = (): void => setDrawer(false);

export function useCartOpen(): boolean {
  return useSyncExternalStore(
    (listener) => {
      drawerListeners.add(listener);
      return () => drawerListeners.delete(listener);
    },
    () => drawerOpen,
    () => drawerOpen,
  );
}
