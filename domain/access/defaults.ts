/** The permissions each role starts with (the seed's demo accounts use these). */

import { ALL_PERMISSIONS, type Permission } from './permissions';
import type { Role } from './roles';

export const DEFAULT_PERMISSIONS_BY_ROLE: Readonly<Record<Role, readonly Permission[]>> = {
  admin: ALL_PERMISSIONS,
  administrator: ALL_PERMISSIONS,
  partner: [
    'Projects.Read',
    'Projects.Create',
    'Projects.Update',
    'Orders.Read',
    'Orders.Track',
    'Orders.Browse',
    'Orders.Checkout',
    'Orders.Shipping',
    'Rebates.Read',
    'Rebates.Create',
    'Rebates.Overview',
    'Support.Read',
    'Support.Create',
    'Leads.Read',
    'Leads.Update',
    'MDF.Read',
    'MDF.Create',
    'MDF.Update',
    'Learning.Read',
  ],
  distributor: [
    'Orders.Read',
    'Orders.Create',
    'Orders.Track',
    'Orders.Browse',
    'Orders.Checkout',
    'Orders.Shipping',
    'Support.Read',
    'Support.Create',
    'Partners.Read',
    'MDF.Read',
    'MDF.Create',
    'MDF.Update',
    'Learning.Read',
  ],
  manufacturer: ['Projects.Read', 'Orders.Read', 'Orders.Track', 'Partners.Read', 'Leads.Read', 'Leads.Create', 'Learning.Read'],
  // Read-only orders, so support staff can answer "where is my order?" cases: the list, an order and its tracking.
  support: ['Support.Read', 'Support.Create', 'Support.Update', 'Orders.Read', 'Orders.Track', 'Learning.Read'],
  partner_user: ['Projects.Read', 'Orders.Track', 'Orders.Browse', 'Learning.Read'],
  distributor_user: ['Orders.Track', 'Orders.Browse', 'Learning.Read'],
};
