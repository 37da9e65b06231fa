import { useGetIdentity } from 'react-admin';
import { Placeholder } from '../placeholders/Placeholder';

export const DASHBOARD_TITLES = {
  manufacturer: 'Manufacturer Dashboard',
  distributor: 'Distributor Dashboard',
  partner: 'Partner Dashboard',
  support: 'Support Dashboard',
  admin: 'Admin Dashboard',
} as const;

export type DashboardKind = keyof typeof DASHBOARD_TITLES;

/** A role dashboard: title and welcome line; statistics, quick actions and activity follow. */
export function RoleDashboard({ kind }: { kind: DashboardKind }) {
  const { identity } = useGetIdentity();
  const name = identity?.fullName ? `, ${identity.fullName}` : '';
  return (
    <Placeholder
      title={DASHBOARD_TITLES[kind]}
      subtitle={`Welcome back${name}`}
      description="Headline statistics, quick actions and the recent-activity feed of this dashboard are being built and will be available in an upcoming release."
    />
  );
}

export const ManufacturerDashboard = () => <RoleDashboard kind="manufacturer" />;
export const DistributorDashboard = () => <RoleDashboard kind="distributor" />;
export const PartnerDashboard = () => <RoleDashboard kind="partner" />;
export const SupportDashboard = () => <RoleDashboard kind="support" />;
export const AdminDashboard = () => <RoleDashboard kind="admin" />;
