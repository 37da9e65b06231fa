import { lazy } from 'react';
import type { Screen } from '../layout/screens';
import { GovernanceGate } from './GovernanceGate';

const PartnershipGovernance = lazy(() => import('./PartnershipGovernance'));
const DistributorInventory = lazy(() => import('../inventory/DistributorInventory'));

/** Partnership governance for partners and distributors (others are told where the same facts live), and the distributors' inventory. */
export const governanceScreens: Screen[] = [
  {
    path: '/partnership-governance',
    element: (
      <GovernanceGate>
        <PartnershipGovernance teamPath="/partner/team-management" />
      </GovernanceGate>
    ),
  },
  {
    path: '/distributor/partnership-governance',
    element: (
      <GovernanceGate>
        <PartnershipGovernance teamPath="/distributor/team-management" />
      </GovernanceGate>
    ),
  },
  { path: '/distributor/inventory', element: <DistributorInventory /> },
];
