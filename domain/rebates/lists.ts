import { PRODUCT_CATEGORIES } from '../products/products';

/**
 * The choices of the Submit Rebate form (spec 002 §7: category and type lists, each with id and
 * name). Product categories are the catalogue's, plus Other for equipment bought elsewhere.
 */
export const REBATE_PRODUCT_CATEGORIES = [...PRODUCT_CATEGORIES, 'Other'] as const;

/** The rebate programmes a partner can claim under. */
export const REBATE_TYPES = ['Volume Rebate', 'Promotional Rebate', 'Project Rebate', 'Growth Incentive', 'Co-op Marketing'] as const;

export const isRebateProductCategory = (value: string) => (REBATE_PRODUCT_CATEGORIES as readonly string[]).includes(value);
export const isRebateType = (value: string) => (REBATE_TYPES as readonly string[]).includes(value);

/** `Managed Switches` → `managed-switches`: a stable id for a list entry. */
export const listEntryId = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * A claim names a list entry by its name or by the id the list answers (`managed-switches`): either
 * gives the entry's name; anything else is kept as sent, for the decider to refuse.
 */
export function listEntryName(names: readonly string[], value: string): string {
  const sent = value.trim();
  return names.find((name) => name === sent || listEntryId(name) === sent.toLowerCase()) ?? value;
}

export const asListEntries = (names: readonly string[]) => names.map((name) => ({ id: listEntryId(name), name }));

/** Supporting documents (spec 002 §5, §9): at most 5 files, these types, recognised by content. */
export const REBATE_DOCUMENT_EXTENSIONS = ['pdf', 'doc', 'docx', 'jpg', 'jpeg', 'png'] as const;
/** The stored types, as recognised by content (a .jpeg is a jpg). */
export const REBATE_DOCUMENT_TYPES = ['pdf', 'doc', 'docx', 'jpg', 'png'] as const;
export const MAX_REBATE_DOCUMENTS = 5;
/** The specification names no size; 10 MB per document matches the portal's other uploads. */
export const MAX_REBATE_DOCUMENT_BYTES = 10 * 1024 * 1024;
