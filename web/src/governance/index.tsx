import { lazy } from 'react';
import { Route } from 'react-router-dom';
import { GovernanceGate } from './GovernanceGate';

const PartnershipGovernance = lazy(() => import('./PartnershipGovernance'));
const DistributorInventory = lazy(() => import('../inventory/DistributorInventory'));

/** Partnership governance for partners and distributors, and the distributors' inventory. */
export const governanceRoutes = [
  <Route key="partner-governance" path="/partnership-governance" element={<GovernanceGate><PartnershipGovernance teamPath="/partner/team-management" /></GovernanceGate>} />,
  <Route key="distributor-governance" path="/distributor/partnership-governance" element={<GovernanceGate><PartnershipGovernance teamPath="/distributor/team-management" /></GovernanceGate>} />,
  <Route key="distributor-inventory" path="/distributor/inventory" element={<DistributorInventory />} />,
];
