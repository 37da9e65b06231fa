/** Screens owned by later work: each resolves now, with its title and an honest "coming soon". */
export interface PlaceholderRoute {
  path: string;
  title: string;
  subtitle?: string;
  description?: string;
  /** Checked with the shared route rules. */
  guarded?: boolean;
}

export const PLACEHOLDER_ROUTES: readonly PlaceholderRoute[] = [
  { path: '/partnership-governance', title: 'Partnership Governance' },
  { path: '/distributor/partnership-governance', title: 'Partnership Governance' },
  { path: '/distributor/inventory', title: 'Inventory' },
];

