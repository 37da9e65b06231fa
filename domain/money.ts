/** Money: amounts are kept in cents and shown in US dollars. */

/** "129.5" → 12950; undefined when the text is not a price with at most 2 decimals. */
export function parsePriceCents(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(trimmed)) return undefined;
  const [whole, fraction = ''] = trimmed.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export const centsToAmount = (cents: number) => Math.round(cents) / 100;

// Made once: `toLocaleString` with options builds a new formatter on every call.
const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** $1,234.50 */
export function formatUsd(amount: number): string {
  return USD.format(amount);
}
