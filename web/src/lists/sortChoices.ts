import type { ListSortChoice } from './ListToolbar';

/** The sort choices most lists offer, worded alike everywhere. */
export const NEWEST_FIRST: ListSortChoice = { field: 'created_at', order: 'DESC', label: 'Newest first' };
export const OLDEST_FIRST: ListSortChoice = { field: 'created_at', order: 'ASC', label: 'Oldest first' };

/** "Name A–Z" and the like: ascending by a text field. */
export const alphabetical = (field: string, label: string): ListSortChoice => ({ field, order: 'ASC', label: `${label} A–Z` });
