/** Money: amounts are kept in cents and shown in US dollars. */

/** "129.5" → 12950; undefined when the text is not a price with at most 2 decimals. */
export function parsePriceCents(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(trimmed)) return undefined;
  const [whole, fraction = ''] = trimmed.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export const centsToAmount = (cents: number) => Math.round(cents) / 100;

// Formatters are made once: `toLocaleString` with options builds a new one on every call, which
// dominated a log replay and a twentieth of a partner dashboard's CPU.
const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const WHOLE_DOLLARS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const DOLLARS_AND_CENTS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `$1,240` or `$1,240.50`: the cents only when there are some. */
export const formatDollars = (cents: number): string => `$${(cents % 100 === 0 ? WHOLE_DOLLARS : DOLLARS_AND_CENTS).format(cents / 100)}`;

/** `$1,240.00`: always both cent digits. */
export const formatDollarsAndCents = (cents: number): string => `$${DOLLARS_AND_CENTS.format(cents / 100)}`;

/** $1,234.50 */
export function formatUsd(amount: number): string {
  return USD.format(amount);
}
