/** How a demo rebate claim is written down, by hand (rebates.ts) or generated as history (historyRebates.ts). */
export type Review =
  { status: 'processing'; note?: string } | { status: 'approved'; ratePercent: number; note?: string } | { status: 'rejected'; reason: string };

export interface DemoRebate {
  organisation: string; // e-mail of the claiming demo account
  /** `current` or `previous` calendar quarter, or how many quarters back (2, 3) for the history; and the day within it (clamped to today). */
  quarter: 'current' | 'previous' | number;
  day: number;
  /** An invoice number, or the number of a demo order (`order:<key>`), so the reviewer sees the match. */
  invoice: string;
  product: string;
  category: string;
  type: string;
  amount: number;
  description: string;
  documents: Array<'invoice' | 'delivery-note'>;
  steps: Review[];
}
