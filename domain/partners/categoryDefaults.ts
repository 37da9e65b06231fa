/**
 * The permissions a partner account starts with in each partnership category: the approve dialog
 * ticks them when the category is chosen, and an approval that names no permissions grants them.
 *
 * - Authorized (entry): order from the catalogue and follow its orders, register deals, read support.
 * - Value Added: also updates and extends its deals, sees the rebate programme (overview and its
 *   own standing) and its marketing funds, and receives vendor leads, the step towards Exclusive.
 * - Exclusive: everything the approve dialog offers, including submitting rebate claims and fund requests.
 */

import { PARTNER_APPROVAL_PERMISSION_GROUPS, type Permission } from '../access';
import { PARTNER_CATEGORIES, tierOfCategory, type PartnerCategory, type PartnerTier } from './application';
import { recordOf } from '../records';

const AUTHORIZED: readonly Permission[] = [
  'Projects.Read',
  'Projects.Create',
  'Orders.Track',
  'Orders.Browse',
  'Orders.Checkout',
  'Orders.Shipping',
  'Support.Read',
  'Learning.Read',
];

const VALUE_ADDED: readonly Permission[] = [...AUTHORIZED, 'Projects.Update', 'Rebates.Read', 'Rebates.Overview', 'Leads.Read', 'Leads.Update', 'MDF.Read'];

/** Every permission of the approve dialog, in its order. */
const EVERYTHING_OFFERED: readonly Permission[] = PARTNER_APPROVAL_PERMISSION_GROUPS.flatMap((group) => group.permissions);

const DEFAULTS_BY_TIER: Readonly<Record<PartnerTier, readonly Permission[]>> = {
  Authorized: AUTHORIZED,
  'Value Added': VALUE_ADDED,
  Exclusive: EVERYTHING_OFFERED,
};

/** The category's starting permissions, in the approve dialog's order. */
export function defaultPermissionsOfCategory(category: PartnerCategory): Permission[] {
  const wanted = new Set(DEFAULTS_BY_TIER[tierOfCategory(category)]);
  return EVERYTHING_OFFERED.filter((permission) => wanted.has(permission));
}

/** Every category with its defaults, for the decision record and the tests. */
export const CATEGORY_DEFAULT_PERMISSIONS: Readonly<Record<PartnerCategory, readonly Permission[]>> = recordOf(
  PARTNER_CATEGORIES,
  defaultPermissionsOfCategory,
);
