/**
 * Texts that invite an action, worded for what the caller may actually do: a screen never invites
 * someone to browse the catalogue when they lack the permission to open it.
 */

/** The Order Management subtitle: tracking always, the catalogue only for those who may browse it. */
export function orderManagementSubtitle(canBrowseProducts: boolean): string {
  return canBrowseProducts ? 'Track orders and browse our product catalog.' : 'Track your orders and their delivery status.';
}

/** The Product Portfolio page's closing line. */
export function cataloguePointer(canBrowseProducts: boolean): string {
  return canBrowseProducts
    ? 'Current prices, stock and minimum order quantities are in the Catalogue.'
    : 'Prices, stock and ordering are in the Catalogue, open to accounts with the Browse Products permission; ask your administrator if you need it.';
}
